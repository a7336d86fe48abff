import { TapProxy } from './tap';

/**
 * Counts the SQL statements one process sends to Postgres, from outside it:
 * a TCP pass-through between that process and the server that reads the
 * frontend half of the wire protocol. Only the process pointed at the proxy
 * is counted, so the services sharing the database are never attributed to
 * it, and nothing in the counted process changes.
 *
 * A statement is counted when it is executed: a simple Query ('Q'), or an
 * Execute ('E') of the extended protocol, attributed to the text its portal
 * was bound from (a named prepared statement is parsed once per connection
 * and bound by name afterwards, so the name → text map is kept per connection).
 */
export class FrontendStream {
  private buffered: Buffer = Buffer.alloc(0);
  private startupDone = false;
  private closed = false;
  private readonly statements = new Map<string, string>();
  private readonly portals = new Map<string, string>();

  constructor(private readonly onExecute: (sql: string) => void) {}

  feed(chunk: Buffer): void {
    if (this.closed) return;
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    let offset = 0;
    for (;;) {
      if (!this.startupDone) {
        // Untyped messages: SSLRequest / GSSENCRequest (a startup follows), CancelRequest (nothing follows), StartupMessage.
        if (this.buffered.length - offset < 8) break;
        const length = this.buffered.readInt32BE(offset);
        if (this.buffered.length - offset < length) break;
        const code = this.buffered.readInt32BE(offset + 4);
        offset += length;
        if (code === 80877103 || code === 80877104) continue;
        if (code === 80877102) {
          this.closed = true;
          break;
        }
        this.startupDone = true;
        continue;
      }
      if (this.buffered.length - offset < 5) break;
      const type = String.fromCharCode(this.buffered[offset]!);
      const length = this.buffered.readInt32BE(offset + 1);
      if (this.buffered.length - offset < 1 + length) break;
      this.message(type, this.buffered.subarray(offset + 5, offset + 1 + length));
      offset += 1 + length;
    }
    this.buffered = offset >= this.buffered.length ? Buffer.alloc(0) : Buffer.from(this.buffered.subarray(offset));
  }

  private message(type: string, body: Buffer): void {
    switch (type) {
      case 'Q':
        this.onExecute(cstrings(body, 1)[0]!);
        return;
      case 'P': {
        const [name, text] = cstrings(body, 2);
        this.statements.set(name!, text!);
        return;
      }
      case 'B': {
        const [portal, statement] = cstrings(body, 2);
        this.portals.set(portal!, this.statements.get(statement!) ?? `<unparsed statement ${statement}>`);
        return;
      }
      case 'E': {
        const [portal] = cstrings(body, 1);
        this.onExecute(this.portals.get(portal!) ?? '<unbound portal>');
        return;
      }
      case 'X':
        this.closed = true;
        return;
      default:
        // Describe, Sync, Flush, Close, password and COPY messages execute nothing.
        return;
    }
  }
}

function cstrings(body: Buffer, n: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = body.indexOf(0, start);
    if (end < 0) break;
    out.push(body.toString('utf8', start, end));
    start = end + 1;
  }
  return out;
}

/** One line per statement text, whitespace folded, so counts group by statement. */
export function statementKey(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}

/** Counts every statement the processes connected through it execute, by statement text. */
export class PgCounter extends TapProxy {
  constructor(upstream: { host: string; port: number }) {
    super(upstream, (count) => {
      const stream = new FrontendStream((sql) => count(statementKey(sql)));
      return (chunk) => stream.feed(chunk);
    });
  }
}

