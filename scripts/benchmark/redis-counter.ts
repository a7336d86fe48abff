import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { TapProxy } from './tap';

/**
 * A private redis-server for the benchmark stack, so nothing but the bench's
 * gateways talks to it. INFO commandstats counts what Redis executed, the
 * commands Lua scripts call included; round trips are counted on the wire
 * by RedisCounter instead.
 */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  private admin: Redis | null = null;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--loglevel', 'warning'], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        this.admin = probe;
        return;
      } catch {
        probe.disconnect();
        if (Date.now() > deadline) throw new Error(`redis-server did not start on :${this.port}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Calls per command since start (INFO commandstats), without the INFO calls this reader makes. */
  async commandCalls(): Promise<Map<string, number>> {
    return parseCommandStats(await this.admin!.info('commandstats'));
  }

  async stop(): Promise<void> {
    this.admin?.disconnect();
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((r) => this.child!.once('exit', r));
      this.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    }
  }
}

/** `cmdstat_evalsha:calls=12,usec=…` lines → command → calls; INFO itself is the reader's, not the gateway's. */
export function parseCommandStats(info: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of info.split(/\r?\n/)) {
    const m = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (m && m[1] !== 'info') out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/**
 * The client half of RESP: each command a client sends is one array of bulk
 * strings (`*N\r\n$len\r\narg\r\n…`). Counted by command name; the
 * commands a Lua script runs inside Redis never cross the wire, so an
 * EVALSHA is one command however much its script does.
 */
export class RespStream {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(private readonly onCommand: (name: string) => void) {}

  feed(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    let offset = 0;
    for (;;) {
      const parsed = this.command(offset);
      if (!parsed) break;
      offset = parsed.next;
      this.onCommand(parsed.name);
    }
    this.buffered = offset >= this.buffered.length ? Buffer.alloc(0) : Buffer.from(this.buffered.subarray(offset));
  }

  private line(offset: number): { text: string; next: number } | null {
    const end = this.buffered.indexOf('\r\n', offset);
    if (end < 0) return null;
    return { text: this.buffered.toString('latin1', offset, end), next: end + 2 };
  }

  private command(offset: number): { name: string; next: number } | null {
    const head = this.line(offset);
    if (!head) return null;
    if (!head.text.startsWith('*')) {
      // An inline command (redis-cli style): the first word names it.
      return { name: head.text.trim().split(/\s+/)[0]!.toLowerCase() || 'inline', next: head.next };
    }
    const n = Number(head.text.slice(1));
    let at = head.next;
    let name = '';
    for (let i = 0; i < n; i++) {
      const len = this.line(at);
      if (!len) return null;
      const size = Number(len.text.slice(1));
      if (this.buffered.length < len.next + size + 2) return null;
      if (i === 0) name = this.buffered.toString('latin1', len.next, len.next + size).toLowerCase();
      at = len.next + size + 2;
    }
    return { name, next: at };
  }
}

/** Commands (= requests on the wire) the processes connected through it send to Redis, by name. */
export class RedisCounter extends TapProxy {
  constructor(upstream: { host: string; port: number }) {
    super(upstream, (count) => {
      const stream = new RespStream(count);
      return (chunk) => stream.feed(chunk);
    });
  }
}
