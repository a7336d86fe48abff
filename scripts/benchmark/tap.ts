import net from 'node:net';

/** Reads one connection's client-to-server bytes and reports each counted unit (a statement, a command) under a name. */
export type ClientStreamReader = (count: (name: string) => void) => (chunk: Buffer) => void;

/**
 * A loopback TCP pass-through in front of a server, reading what clients
 * send. The bench points exactly one process at it, so everything counted
 * is that process's traffic; bytes pass unchanged in both directions.
 */
export class TapProxy {
  readonly counts = new Map<string, number>();
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly upstream: { host: string; port: number },
    private readonly reader: ClientStreamReader,
  ) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      const server = net.connect(this.upstream.port, this.upstream.host);
      const read = this.reader((name) => this.counts.set(name, (this.counts.get(name) ?? 0) + 1));
      for (const s of [client, server]) {
        this.sockets.add(s);
        s.setNoDelay(true);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.on('data', (chunk: Buffer) => read(chunk));
      client.pipe(server);
      server.pipe(client);
      client.on('close', () => server.destroy());
      server.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Counts by name since start. */
  snapshot(): Map<string, number> {
    return new Map(this.counts);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Per-name difference of two snapshots (after − before), zero rows left out. */
export function diffCounts(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, n] of after) {
    const d = n - (before.get(name) ?? 0);
    if (d !== 0) out.set(name, d);
  }
  return out;
}
