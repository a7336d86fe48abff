import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import { natsConnectOptions } from '@evidence-record/platform';
import { freePort } from './launcher';
import { waitFor } from './wait';

/**
 * A server process this test owns (never the machine's own Redis or NATS),
 * on a fixed port so that a restart comes back at the same address, as a
 * restarted server would.
 */
export class PrivateServer {
  private child: ChildProcess | null = null;
  readonly output: string[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly command: string,
    private readonly args: string[],
    private readonly ready: () => Promise<boolean>,
    private readonly cleanup: () => Promise<void> = async () => undefined,
  ) {}

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null;
  }

  async start(): Promise<void> {
    if (this.running) return;
    const child = spawn(this.command, this.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (b: Buffer) => {
      this.output.push(...b.toString().split('\n').filter(Boolean));
      if (this.output.length > 200) this.output.splice(0, this.output.length - 200);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.child = child;
    await waitFor(`${this.name} on :${this.port}`, async () => {
      if (child.exitCode !== null) throw new Error(`${this.name} exited with ${child.exitCode}: ${this.output.slice(-5).join(' | ')}`);
      return this.ready();
    }, 20_000, 100);
  }

  /** SIGKILL by default: the server vanishes the way a crashed or unplugged one does. */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }

  async dispose(): Promise<void> {
    await this.stop();
    await this.cleanup();
  }
}

/** A private redis-server without persistence: a restart comes back empty, like a replaced cache node. */
export async function privateRedis(): Promise<PrivateServer & { url: string }> {
  const port = await freePort();
  const server = new PrivateServer('redis-server', port, 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], async () => {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: 500 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  });
  await server.start();
  return Object.assign(server, { url: `redis://127.0.0.1:${port}` });
}

/** A private nats-server with JetStream and its own store directory, which survives a restart (as a JetStream volume does). */
export async function privateNats(): Promise<PrivateServer & { url: string }> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'er-nats-'));
  const url = `nats://127.0.0.1:${port}`;
  const server = new PrivateServer(
    'nats-server',
    port,
    'nats-server',
    ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir],
    async () => {
      try {
        const nc = await connect({ ...natsConnectOptions(url), reconnect: false, timeout: 1000 });
        try {
          await (await nc.jetstreamManager()).getAccountInfo();
          return true;
        } finally {
          await nc.close();
        }
      } catch {
        return false;
      }
    },
    () => rm(dir, { recursive: true, force: true }),
  );
  await server.start();
  return Object.assign(server, { url });
}
