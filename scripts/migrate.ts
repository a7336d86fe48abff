import { runMigrations } from '@evidence-record/platform';

// Applies pending migrations to DATABASE_URL. Used by `npm run up`, the tests and the chart's migration Job.
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/evidence_record';
const applied = await runMigrations(url, () => undefined);
console.log(JSON.stringify({ migrated: applied }));
