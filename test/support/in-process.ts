import { randomBytes } from 'node:crypto';
import type express from 'express';
import { Metrics, createLogger, createPool, startService, type Logger, type Pool } from '@evidence-record/platform';

export interface InProcessService {
  url: string;
  pool: Pool;
  /** GET with a fresh request id; the JSON body as an object. */
  get: (path: string) => Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  close: () => Promise<void>;
}

/**
 * A service's app in this process on a free port, with its own small pool
 * on a test database and a silent logger: how the services' integration
 * tests drive one service without the gateway.
 */
export async function startInProcess(
  name: string,
  databaseUrl: string,
  createApp: (deps: { pool: Pool; log: Logger; metrics: Metrics }) => express.Express,
): Promise<InProcessService> {
  const pool = createPool(databaseUrl, { max: 4 });
  const log = createLogger(`${name}-test`, 'silent');
  const app = createApp({ pool, log, metrics: new Metrics(name) });
  const running = await startService(app, { port: 0, log, graceMs: 100, handleSignals: false });
  const url = `http://127.0.0.1:${running.port}`;
  return {
    url,
    pool,
    get: async (path) => {
      const res = await fetch(`${url}${path}`, { headers: { 'x-request-id': `req_${randomBytes(12).toString('hex')}` } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
    },
    close: async () => {
      await running.close();
      await pool.end();
    },
  };
}
