/**
 * Poll the Signal feed with the typed client: prints every confirmed change
 * released since the last run, once, and remembers where it got to.
 *
 *   npm run up                                   # the local stack and a demo key in .run/demo-key
 *   npx tsx examples/poll-signals.ts             # first run: the whole feed (or set SINCE=2026-11-01)
 *   npx tsx examples/poll-signals.ts             # later runs: only what was released since
 *
 * Environment: EVIDENCE_RECORD_URL (default http://127.0.0.1:8080),
 * EVIDENCE_RECORD_KEY (default: the key in .run/demo-key), SINCE (first run
 * only, YYYY-MM-DD, exclusive), POLL_STATE (default .run/poll-signals.json).
 */
import { readFile } from 'node:fs/promises';
import { EvidenceRecordClient, EvidenceRecordError, FilePollStore, pollSignals } from '@evidence-record/client';

const baseUrl = process.env.EVIDENCE_RECORD_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.EVIDENCE_RECORD_KEY ?? (await readFile('.run/demo-key', 'utf8').catch(() => '')).trim();
if (!apiKey) {
  console.error('No key: set EVIDENCE_RECORD_KEY, or run `npm run up` first (it writes .run/demo-key).');
  process.exit(2);
}

const client = new EvidenceRecordClient({ baseUrl, apiKey });
const store = new FilePollStore(process.env.POLL_STATE ?? '.run/poll-signals.json');

let count = 0;
try {
  for await (const signal of pollSignals(client, { store, ...(process.env.SINCE ? { since: process.env.SINCE } : {}) })) {
    count += 1;
    const window = signal.observation_window;
    console.log(
      `${signal.review.released_at}  ${signal.signal_id}  ${signal.dimension.padEnd(8)}  ${signal.product.brand_name} ${signal.product.name}: ${signal.summary}` +
        `\n            observed between ${window.start} and ${window.end}${window.exact_change_date ? ` (changed on ${window.exact_change_date})` : ''}; cite ${signal.signal_url}`,
    );
  }
  console.log(count === 0 ? 'Nothing new since the last run.' : `${count} Signal${count === 1 ? '' : 's'}; the next run starts after them.`);
} catch (err) {
  if (!(err instanceof EvidenceRecordError)) throw err;
  // Everything printed before the refusal is remembered: the next run does not repeat it.
  if (err.code === 'extraction_limit_reached') {
    console.error(`The organization's daily Signal budget is spent; run again after ${err.budgetResetsAt?.toISOString()} (request ${err.requestId}).`);
  } else {
    console.error(`Refused: ${err.code} (HTTP ${err.status}, request ${err.requestId}): ${JSON.stringify(err.details)}`);
  }
  process.exit(1);
}
