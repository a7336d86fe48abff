import { randomBytes } from 'node:crypto';
import { Metrics, createLogger, createPool, startService, type Pool } from '@evidence-record/platform';
import { createLedgerApp } from '../../src/index';

export const PUBLIC_BASE_URL = 'https://evidence-record.test';

export interface InProcessLedger {
  url: string;
  pool: Pool;
  setToday: (date: string | null) => void;
  get: (path: string) => Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  close: () => Promise<void>;
}

/** The ledger app in this process on a free port, with an adjustable "today". */
export async function startLedger(databaseUrl: string): Promise<InProcessLedger> {
  const pool = createPool(databaseUrl, { max: 4 });
  let today: string | null = null;
  const log = createLogger('ledger-test', 'silent');
  const app = createLedgerApp({ pool, log, metrics: new Metrics('ledger'), publicBaseUrl: PUBLIC_BASE_URL, today: () => today ?? new Date().toISOString().slice(0, 10) });
  const running = await startService(app, { port: 0, log, graceMs: 100, handleSignals: false });
  const url = `http://127.0.0.1:${running.port}`;
  return {
    url,
    pool,
    setToday: (d) => {
      today = d;
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
