import { createLogger, createPool, Metrics, startService, type Pool, type RunningService } from '@evidence-record/platform';
import { createWatchApp } from '@evidence-record/watch';

export interface WatchHarness {
  pool: Pool;
  url: string;
  call: (method: 'GET' | 'POST' | 'DELETE', path: string, headers: Record<string, string>, body?: unknown) => Promise<{ status: number; body: any; headers: Headers }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract schemas in the tests
  close: () => Promise<void>;
}

/** The watch service in-process on an ephemeral port, with a fixed clock. */
export async function startWatchHarness(databaseUrl: string, now: () => Date): Promise<WatchHarness> {
  const pool = createPool(databaseUrl, { max: 10 });
  const log = createLogger('watch-test', 'silent');
  const app = createWatchApp({ pool, log, metrics: new Metrics('watch'), now });
  const running: RunningService = await startService(app, { port: 0, log, graceMs: 100, handleSignals: false });
  const url = `http://127.0.0.1:${running.port}`;
  return {
    pool,
    url,
    call: async (method, path, headers, body) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    close: async () => {
      await running.close();
      await pool.end();
    },
  };
}
