import { applyIngredientCatalogue } from '@evidence-record/curation';
import { createPool } from '@evidence-record/platform';
import { runMigrations } from '@evidence-record/record-store/migrations';

// Applies pending migrations to DATABASE_URL, then the ingredient catalogue (decision 1500: reference data every
// deployment needs; it only adds, and writes nothing when the Record already holds it all). Used by `npm run up`,
// the chart's migration Job and `npm run migrate`.
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/evidence_record';
const applied = await runMigrations(url, () => undefined);
const pool = createPool(url, { max: 1, applicationName: 'migrate' });
try {
  const catalogue = await applyIngredientCatalogue(pool, 'migrate');
  console.log(JSON.stringify({ migrated: applied, catalogue }));
} finally {
  await pool.end();
}
