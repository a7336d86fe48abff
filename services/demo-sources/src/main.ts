import { configOrExit, createPool, databasePoolOptions, withRecordChange } from '@evidence-record/platform';
import { addProductIn, AddProductInput } from '@evidence-record/curation';
import { z } from 'zod';
import { addSource, createMonitor, policyOf, runOnce } from '@evidence-record/sources';
import { loadDemoSourcesConfig } from './config';
import { DEMO_BRAND, DEMO_LABEL_ID, DEMO_PRODUCT, DEMO_RETAILERS, changed, demoLabel, demoOffer, initialDemoState, type DemoState } from './demo';
import { recordedDemoState } from './recorded';
import { startSourceServer, type SourceServer } from './server';

/**
 * The local demo source server (decision 1009), started by `npm run up`:
 *   serve                  plays DSLD (/dsld/v9/label/{id}) and two retailers (/shop/{retailer}/{slug}) on DEMO_SOURCES_PORT
 *   register               adds the demo product and its three sources, and reads them once dated yesterday
 *   change label|price     moves the demo label (caffeine +25 mg) or list price (+$3) one step past what the Record
 *                          last read, asks the monitor to check now, and prints the candidate the running monitor
 *                          opens (within a minute)
 * Its settings come from the stack's one configuration (.run/stack.env, then the environment: ./config.ts).
 */
const config = configOrExit('demo-sources', () => loadDemoSourcesConfig());
const port = config.DEMO_SOURCES_PORT;
const base = `http://127.0.0.1:${port}`;
const [command, arg] = process.argv.slice(2);

async function serve(): Promise<void> {
  let state: DemoState = initialDemoState();
  const apply = () => {
    src.labels.set(DEMO_LABEL_ID, demoLabel(state));
    for (const r of DEMO_RETAILERS) src.offers.set(`${r.slug}/updraft-pre-workout`, demoOffer(state, r.slug));
  };
  const src = await startSourceServer({
    port,
    // PUT /_demo/state {caffeineMg, listPrice} (the server listens on 127.0.0.1 only): what the sources serve from now.
    control: (req, res, path) => {
      if (path !== '/_demo/state' || req.method !== 'PUT') return false;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let parsed;
        try {
          parsed = DemoStateBody.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          parsed = null;
        }
        if (!parsed?.success) {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"the body is {caffeineMg, listPrice}, both positive numbers"}');
          return;
        }
        state = parsed.data;
        apply();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ state }));
      });
      return true;
    },
  });
  apply();
  process.stdout.write(`${JSON.stringify({ demo_sources: src.origin })}\n`);
  const stop = () => void src.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function pool() {
  return createPool(config.DATABASE_URL, { max: 4, applicationName: 'demo-sources', ...databasePoolOptions(config) });
}

async function demoProductId(p: ReturnType<typeof pool>): Promise<string | null> {
  const { rows } = await p.query<{ product_id: string }>(
    `SELECT p.product_id FROM products p JOIN brands b ON b.brand_id = p.brand_id WHERE b.name = $1 AND p.name = $2`,
    [DEMO_BRAND, DEMO_PRODUCT],
  );
  return rows[0]?.product_id ?? null;
}

const DemoStateBody = z.strictObject({ caffeineMg: z.number().positive(), listPrice: z.number().positive() });

async function serveState(state: DemoState): Promise<void> {
  const res = await fetch(`${base}/_demo/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(state) });
  if (!res.ok) throw new Error(`the demo source server answered ${res.status}; is the stack up (npm run up)?`);
}

async function register(): Promise<void> {
  const p = pool();
  try {
    let productId = await demoProductId(p);
    if (!productId) {
      const input = AddProductInput.parse({ brand: DEMO_BRAND, name: DEMO_PRODUCT, aliases: ['Updraft'] });
      const { result } = await withRecordChange(p, 'demo monitor product added', async (client) => {
        const added = await addProductIn(client, input);
        await client.query('UPDATE products SET is_demo = true WHERE product_id = $1', [added.product_id]);
        await client.query('UPDATE brands SET is_demo = true WHERE brand_id = $1', [added.brand_id]);
        return added;
      });
      productId = result.product_id;
    }
    const existing = await p.query<{ url: string }>('SELECT url FROM sources WHERE product_id = $1', [productId]);
    const have = new Set(existing.rows.map((r) => r.url));
    const wanted = [
      { kind: 'dsld_label' as const, url: `${config.DSLD_BASE_URL.replace(/\/+$/, '')}/label/${DEMO_LABEL_ID}`, retailer: null },
      ...DEMO_RETAILERS.map((r) => ({ kind: 'offer_page' as const, url: `${base}/shop/${r.slug}/updraft-pre-workout`, retailer: r.retailer })),
    ];
    for (const w of wanted) if (!have.has(w.url)) await addSource(p, { product_id: productId, ...w, every: '7d', added_by: 'npm run up' }, policyOf(config));
    await serveState(await recordedDemoState(p, productId));
    // The first reading is dated yesterday, so a change made today is a change between two days (the Record dates states by day).
    const states = await p.query('SELECT 1 FROM history_states WHERE product_id = $1', [productId]);
    let first = null;
    if (!states.rowCount) {
      const yesterday = new Date(Date.now() - 86_400_000);
      const monitor = createMonitor(p, config, { owner: 'demo-register', now: () => yesterday });
      first = await runOnce(monitor, { productId });
      await monitor.close();
    }
    process.stdout.write(`${JSON.stringify({ product_id: productId, sources: wanted.length, first_reading: first })}\n`);
  } finally {
    await p.end();
  }
}

async function change(what: string | undefined): Promise<void> {
  if (what !== 'label' && what !== 'price') {
    process.stderr.write('usage: npm run -s demo-sources -- change label|price\n');
    process.exitCode = 2;
    return;
  }
  const p = pool();
  try {
    const productId = await demoProductId(p);
    if (!productId) throw new Error('the demo product is not registered; run npm run up');
    await serveState(changed(await recordedDemoState(p, productId), what));
    const since = await p.query<{ max: number | null }>('SELECT max(candidate_id)::bigint AS max FROM candidates');
    // "Check now": the running monitor service leases it within MONITOR_POLL_MS.
    await p.query(`UPDATE sources SET next_check_due = now() WHERE product_id = $1 AND state = 'active' AND kind = $2`, [productId, what === 'label' ? 'dsld_label' : 'offer_page']);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const { rows } = await p.query(
        `SELECT candidate_id, product_id, dimension, status, window_start, window_end, opened_by FROM candidates WHERE product_id = $1 AND candidate_id > $2 ORDER BY candidate_id`,
        [productId, since.rows[0]?.max ?? 0],
      );
      if (rows.length) {
        process.stdout.write(`${JSON.stringify({ changed: what, product_id: productId, candidates: rows })}\n`);
        return;
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const last = await p.query('SELECT outcome, reason FROM monitoring_checks WHERE product_id = $1 ORDER BY check_id DESC LIMIT 1', [productId]);
    process.stdout.write(`${JSON.stringify({ changed: what, product_id: productId, candidates: [], last_check: last.rows[0] ?? null })}\n`);
    process.exitCode = 1;
  } finally {
    await p.end();
  }
}

/** Benchmark fixture: generated labels and offers on `count` ports (each port is a host to the monitor's politeness). */
async function benchServe(count: number): Promise<void> {
  const servers: SourceServer[] = [];
  for (let i = 0; i < count; i++) servers.push(await startSourceServer({ generate: true }));
  process.stdout.write(`${JSON.stringify({ ports: servers.map((s) => s.port) })}\n`);
  const stop = () => void Promise.all(servers.map((s) => s.close())).then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (command === 'serve') await serve();
else if (command === 'bench-serve') await benchServe(Number(arg ?? 200));
else if (command === 'register') await register();
else if (command === 'change') await change(arg);
else {
  process.stderr.write('usage: demo-sources serve | register | change label|price\n');
  process.exitCode = 2;
}
