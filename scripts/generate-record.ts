import { parseArgs } from 'node:util';
import { generateRecord } from '@evidence-record/demo-record/generate';

/**
 * Builds a large, deterministic, fictional Record for benchmarks:
 *   DATABASE_URL=… tsx scripts/generate-record.ts --products 100000 --signals 500000
 * into an empty, migrated database. Prints one JSON line with counts and seconds.
 */
const { values } = parseArgs({
  options: { products: { type: 'string', default: '100000' }, signals: { type: 'string', default: '500000' } },
  strict: true,
});
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/evidence_record';
const started = process.hrtime.bigint();
try {
  const { record_version, counts } = await generateRecord(url, { products: Number(values.products), signals: Number(values.signals) });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(JSON.stringify({ generated: true, record_version, ...counts, seconds: Math.round(seconds * 10) / 10 }));
} catch (err) {
  console.log(JSON.stringify({ generated: false, reason: (err as Error).message }));
  process.exitCode = 1;
}
