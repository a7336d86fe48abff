import autocannon from 'autocannon';
import pg from 'pg';
import { Metrics, createLogger, createPool, startService } from '@evidence-record/platform';
import { createRecordApp } from '../src/app';

/**
 * Latency of resolve_product and get_product_record against the Record in
 * DATABASE_URL, through HTTP, with the service in this process:
 *
 *   DATABASE_URL=postgres://…/db npx tsx services/record/bench/latency.ts [--seconds 15] [--connections 16]
 *
 * Requests cycle over real product ids and real names/aliases (sampled from
 * the Record, so the 100k Record is exercised across its whole key space,
 * not one hot row). Prints one JSON line per capability.
 */
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const seconds = Number(args.get('seconds') ?? 15);
const connections = Number(args.get('connections') ?? 16);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');

const sample = new pg.Client({ connectionString: databaseUrl });
await sample.connect();
const { rows: ids } = await sample.query<{ product_id: string }>(
  `SELECT product_id FROM products TABLESAMPLE BERNOULLI (50) ORDER BY random() LIMIT 2000`,
);
const { rows: names } = await sample.query<{ identifier: string }>(
  `(SELECT b.name || ' ' || p.name AS identifier FROM products p JOIN brands b USING (brand_id) ORDER BY random() LIMIT 1000)
   UNION ALL (SELECT alias FROM product_aliases ORDER BY random() LIMIT 500)
   UNION ALL (SELECT 'Unknown Product ' || g FROM generate_series(1, 100) g)`,
);
const { rows: size } = await sample.query<{ products: number }>('SELECT count(*)::int AS products FROM products');
await sample.end();

const pool = createPool(databaseUrl, { max: connections + 4 });
const log = createLogger('record-bench', 'silent');
const app = createRecordApp({ pool, publicBaseUrl: 'http://127.0.0.1:8080', log, metrics: new Metrics('record') });
const running = await startService(app, { port: 0, log, graceMs: 1000, handleSignals: false });
const url = `http://127.0.0.1:${running.port}`;

async function run(title: string, requests: autocannon.Request[]): Promise<void> {
  let i = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => ({ ...req, ...requests[i++ % requests.length]! }),
      },
    ],
  });
  const non2xx = result.non2xx;
  // A bench prints its results: that is its output.
  process.stdout.write(
    `${JSON.stringify({
      capability: title,
      products_in_record: size[0]!.products,
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      p50_ms: result.latency.p50,
      p90_ms: result.latency.p90,
      p99_ms: result.latency.p99,
      max_ms: result.latency.max,
      non_2xx: non2xx,
      errors: result.errors,
    })}\n`,
  );
}

// Warm the prepared statements and the record-state cache, as a running service would be.
await fetch(`${url}/api/v1/record/version`);
await run(
  'resolve_product',
  names.map((n) => ({ method: 'POST', path: '/api/v1/products/resolve', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: n.identifier.slice(0, 120) }) })),
);
await run(
  'get_product_record',
  ids.map((r) => ({ method: 'GET', path: `/api/v1/products/${r.product_id}` })),
);

await running.close();
await pool.end();
