import { randomBytes } from 'node:crypto';
import { Metrics, createLogger, createPool, startService, type Pool } from '@evidence-record/platform';
import type { Clock } from '@evidence-record/contract';
import { createSignalsApp, type RelayStatus } from '../../src/index';

export interface InProcessSignals {
  url: string;
  pool: Pool;
  cursorSecret: string;
  /** Moves the service's "today" (snapshot default window). */
  setNow: (iso: string | null) => void;
  get: (path: string) => Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  close: () => Promise<void>;
}

export const PUBLIC_BASE_URL = 'https://evidence-record.test';

/** The signals app in this process on a free port, against a test database. */
export async function startSignals(databaseUrl: string, opts: { relayStatus?: () => RelayStatus; cursorSecret?: string } = {}): Promise<InProcessSignals> {
  const pool = createPool(databaseUrl, { max: 4 });
  const cursorSecret = opts.cursorSecret ?? randomBytes(32).toString('hex');
  let now: string | null = null;
  const clock: Clock = () => (now ? new Date(now) : new Date());
  const log = createLogger('signals-test', 'silent');
  const app = createSignalsApp({ pool, log, metrics: new Metrics('signals'), publicBaseUrl: PUBLIC_BASE_URL, cursorSecret, clock, relayStatus: opts.relayStatus });
  const running = await startService(app, { port: 0, log, graceMs: 100, handleSignals: false });
  const url = `http://127.0.0.1:${running.port}`;
  return {
    url,
    pool,
    cursorSecret,
    setNow: (iso) => {
      now = iso;
    },
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
