import { spawn, type ChildProcess } from 'node:child_process';
import { entrypoints, freePort, waitReady, type RunningStack, type ServiceName } from '../../support/stack';

export { PrivateServer, privateNats, privateRedis } from '../../support/private-servers';

/** Polls `probe` until it gives a value (anything but null/undefined/false), or fails after `timeoutMs`. */
export async function until<T>(probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs: number, what = 'condition', intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const v = await probe();
      if (v !== null && v !== undefined && v !== false) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface Replica {
  name: ServiceName;
  port: number;
  url: string;
  logs: string[];
  process: ChildProcess;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/**
 * Another process of one of the stack's services (a second gateway, a
 * second email worker) with the stack's environment, its own port, and
 * optional overrides. The caller stops it.
 */
export async function startReplica(stack: RunningStack, name: ServiceName, env: NodeJS.ProcessEnv = {}): Promise<Replica> {
  const port = await freePort();
  const logs: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', entrypoints[name]], {
    env: { ...stack.env, PORT: String(port), GATEWAY_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (b: Buffer) => {
    logs.push(...b.toString().split('\n').filter(Boolean));
    if (logs.length > 2000) logs.splice(0, logs.length - 2000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill(signal);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  try {
    await waitReady(`${name} replica`, port, child, logs);
  } catch (err) {
    await stop('SIGKILL');
    throw err;
  }
  return { name, port, url: `http://127.0.0.1:${port}`, logs, process: child, stop };
}
