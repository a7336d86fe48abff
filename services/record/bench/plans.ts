import pg from 'pg';
import { normalizeName } from '@evidence-record/record-store';
import { brandSplits } from '../src/capabilities/resolve-product';
import { declaredLines, latestState } from '../src/queries/label';
import { newestPricePerRetailerAndBasis } from '../src/queries/prices';
import { productById } from '@evidence-record/record-store';
import { productsNamedExactly } from '../src/queries/products';
import { sourcesOfProduct } from '../src/queries/sources';

/**
 * Work per query of resolve_product and get_product_record, independent of
 * how busy the machine is: every statement those capabilities run is
 * EXPLAIN (ANALYZE, BUFFERS)'d for a sample of real products, and the
 * buffers touched and any sequential scan are reported. On an indexed
 * path the buffers stay the same from 44 to 100k products.
 *
 *   DATABASE_URL=postgres://…/db npx tsx services/record/bench/plans.ts [--samples 200]
 */
const samples = Number(process.argv[process.argv.indexOf('--samples') + 1] || 200);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

const stats = new Map<string, { runs: number; buffers: number[]; ms: number; seqScans: Set<string> }>();

function seqScans(node: PlanNode, out: Set<string>): void {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) out.add(node['Relation Name']);
  for (const child of node.Plans ?? []) seqScans(child, out);
}

const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
// Statements are run as the service runs them; each is explained first.
const explaining = {
  query: async (config: { name: string; text: string; values?: unknown[] }) => {
    const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${config.text}`,
      config.values,
    );
    const plan = rows[0]!['QUERY PLAN'][0]!;
    const s = stats.get(config.name) ?? { runs: 0, buffers: [], ms: 0, seqScans: new Set<string>() };
    s.runs += 1;
    s.buffers.push((plan.Plan['Shared Hit Blocks'] ?? 0) + (plan.Plan['Shared Read Blocks'] ?? 0));
    s.ms += plan['Execution Time'];
    seqScans(plan.Plan, s.seqScans);
    stats.set(config.name, s);
    return client.query(config);
  },
} as unknown as pg.ClientBase;

const { rows: ids } = await client.query<{ product_id: string; identifier: string }>(
  `SELECT p.product_id, b.name || ' ' || p.name AS identifier FROM products p JOIN brands b USING (brand_id) ORDER BY random() LIMIT $1`,
  [samples],
);
const { rows: size } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM products');
for (const { product_id, identifier } of ids) {
  const n = normalizeName(identifier);
  await productsNamedExactly(explaining, n, brandSplits(n), 5);
  await productById(explaining, product_id);
  const state = await latestState(explaining, product_id);
  if (state) await declaredLines(explaining, [state.state_id]);
  await newestPricePerRetailerAndBasis(explaining, product_id);
  await sourcesOfProduct(explaining, product_id);
}
await client.end();

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
for (const [name, s] of stats) {
  const sorted = [...s.buffers].sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({
      statement: name,
      products_in_record: size[0]!.n,
      runs: s.runs,
      p50_buffers: quantile(sorted, 0.5),
      p99_buffers: quantile(sorted, 0.99),
      max_buffers: sorted.at(-1),
      mean_exec_ms: Math.round((s.ms / s.runs) * 1000) / 1000,
      seq_scans: [...s.seqScans],
    })}\n`,
  );
}
