import { randomBytes } from 'node:crypto';
import type { Clock } from '@evidence-record/contract';
import { startInProcess, type InProcessService } from '@evidence-record/test-support/in-process';
import { createSignalsApp, type RelayStatus } from '../../src/index';

export interface InProcessSignals extends InProcessService {
  cursorSecret: string;
  /** Moves the service's "today" (snapshot default window). */
  setNow: (iso: string | null) => void;
}

export const PUBLIC_BASE_URL = 'https://evidence-record.test';

/** The signals app in this process on a free port, against a test database. */
export async function startSignals(databaseUrl: string, opts: { relayStatus?: () => RelayStatus; cursorSecret?: string } = {}): Promise<InProcessSignals> {
  const cursorSecret = opts.cursorSecret ?? randomBytes(32).toString('hex');
  let now: string | null = null;
  const clock: Clock = () => (now ? new Date(now) : new Date());
  const svc = await startInProcess('signals', databaseUrl, (deps) =>
    createSignalsApp({ ...deps, publicBaseUrl: PUBLIC_BASE_URL, cursorSecret, clock, relayStatus: opts.relayStatus }),
  );
  return {
    ...svc,
    cursorSecret,
    setNow: (iso) => {
      now = iso;
    },
  };
}
