import pg from 'pg';
import { seedDemoRecord } from '@evidence-record/demo-record/seed';

/**
 * `npm run seed`: loads the demo Record into DATABASE_URL (already migrated).
 * A database that already holds products is left alone, so running it twice
 * is harmless. Prints one JSON line.
 */
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/evidence_record';

const client = new pg.Client({ connectionString: url });
await client.connect();
let hasProducts: boolean;
try {
  const { rows } = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM products) AS any');
  hasProducts = rows[0]!.any;
} finally {
  await client.end();
}

if (hasProducts) {
  console.log(JSON.stringify({ seeded: false, reason: 'not empty' }));
} else {
  const { record_version } = await seedDemoRecord(url);
  console.log(JSON.stringify({ seeded: true, record_version }));
}
