import { startInProcess, type InProcessService } from '@evidence-record/test-support/in-process';
import { createLedgerApp } from '../../src/index';

export const PUBLIC_BASE_URL = 'https://evidence-record.test';

export interface InProcessLedger extends InProcessService {
  setToday: (date: string | null) => void;
}

/** The ledger app in this process on a free port, with an adjustable "today". */
export async function startLedger(databaseUrl: string): Promise<InProcessLedger> {
  let today: string | null = null;
  const svc = await startInProcess('ledger', databaseUrl, (deps) =>
    createLedgerApp({ ...deps, publicBaseUrl: PUBLIC_BASE_URL, today: () => today ?? new Date().toISOString().slice(0, 10) }),
  );
  return {
    ...svc,
    setToday: (d) => {
      today = d;
    },
  };
}
