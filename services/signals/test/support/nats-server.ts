import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect as netConnect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private JetStream server for one test file, so the test can take NATS
 * down and bring it back without touching the machine's main NATS. The store
 * directory survives restarts, like a real server's disk.
 */
export class PrivateNatsServer {
  private child: ChildProcess | null = null;
  private storeDir = '';
  port = 0;

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!this.storeDir) this.storeDir = await mkdtemp(join(tmpdir(), 'er-nats-'));
    if (!this.port) this.port = await freePort();
    const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const log: string[] = [];
    child.stdout!.on('data', (b: Buffer) => log.push(b.toString()));
    child.stderr!.on('data', (b: Buffer) => log.push(b.toString()));
    const deadline = Date.now() + 10_000;
    while (!(await accepts(this.port))) {
      if (child.exitCode !== null) throw new Error(`nats-server exited: ${log.join('')}`);
      if (Date.now() > deadline) throw new Error(`nats-server did not start: ${log.join('')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stops this server only (by its own pid), and waits until the port is closed. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    this.child = null;
  }

  async dispose(): Promise<void> {
    await this.stop();
    if (this.storeDir) await rm(this.storeDir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = netConnect(port, '127.0.0.1');
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}
