import type { ChildProcess } from 'node:child_process';
import { freePort, launchReady, type ServiceName } from '@evidence-record/test-support/launcher';
import { type RunningStack } from '@evidence-record/test-support/stack';

export { PrivateServer, privateNats, privateRedis } from '@evidence-record/test-support/private-servers';

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
  const p = await launchReady({ service: name, label: `${name} replica`, port, env: { ...stack.env, ...env } });
  const logs = p.lines;
  const child = p.child;
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => p.stop(signal, 8000);
  return { name, port, url: `http://127.0.0.1:${port}`, logs, process: child, stop };
}
