import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomId } from '@evidence-record/contract';
import { createPool } from '@evidence-record/platform';
import { nouns, parseFlags, type AdminContext } from '@evidence-record/admin';
import type { RunningStack } from '@evidence-record/test-support/stack';
import { operatorCliArgs } from '@evidence-record/test-support/launcher';

/**
 * The operator CLI, two ways. `operator` runs a verb's own code in the test
 * process (exactly what `npm run -s admin` runs, without a process start per
 * call) for fixtures; `cli` runs the real CLI process and keeps its exit code
 * and stdout, for tests about the CLI itself.
 */
export async function operator(stack: RunningStack, ...argv: string[]): Promise<Record<string, unknown>> {
  const [nounName, verbName, ...rest] = argv;
  const verb = nouns.find((n) => n.noun === nounName)?.verbs[verbName ?? ''];
  if (!verb) throw new Error(`no verb ${argv.slice(0, 2).join(' ')}`);
  const closers: Array<() => Promise<void>> = [];
  const pool = createPool(stack.env.DATABASE_URL!, { max: 2, applicationName: 'test-operator', statementTimeoutMs: 60_000 });
  closers.push(() => pool.end());
  const ctx: AdminContext = { pool, flags: parseFlags(rest), env: { ...stack.env }, onClose: (fn) => closers.push(fn) };
  try {
    return await verb.run(ctx);
  } finally {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  }
}

export interface CliRun {
  exitCode: number;
  json: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

export function cli(stack: RunningStack, ...argv: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, operatorCliArgs([...argv, '--json']), { env: { ...stack.env }, timeout: 60_000 }, (err, stdout, stderr) => {
      const exitCode = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      const last = stdout.trim().split('\n').pop() ?? '';
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(last) as Record<string, unknown>;
      } catch {
        json = {};
      }
      resolve({ exitCode, json, stdout, stderr });
    });
  });
}

export interface Customer {
  key: string;
  keyId: string;
  orgId: string;
  accountId: string | null;
  email: string | null;
}

/** An organisation on `plan`, optionally bound to one account (with `email`), and one key with `scopes`. */
export async function customer(stack: RunningStack, opts: { plan: string; scopes: readonly string[]; account?: boolean; email?: string; name?: string }): Promise<Customer> {
  const org = await operator(stack, 'org', 'create', '--name', opts.name ?? `org ${randomBytes(3).toString('hex')}`, '--plan', opts.plan);
  const orgId = String(org.org_id);
  let accountId: string | null = null;
  let email: string | null = null;
  if (opts.account || opts.email) {
    email = opts.email ?? `acct-${randomBytes(4).toString('hex')}@example.test`;
    accountId = String((await operator(stack, 'account', 'create', '--org', orgId, '--email', email)).account_id);
  }
  const issued = await operator(stack, 'key', 'issue', '--org', orgId, '--scopes', opts.scopes.join(','), '--env', 'test');
  return { key: String(issued.key), keyId: String(issued.key_id), orgId, accountId, email };
}

export async function query<T extends pg.QueryResultRow = Record<string, unknown>>(stack: RunningStack, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: stack.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Opens one candidate per product the way an operator does: a new label
 * capture (read the day after the product's newest state), and a candidate
 * between the product's newest comparable state and the new one.
 */
export async function openCandidates(stack: RunningStack, productIds: string[], label: string, summary = `Declared caffeine changed (${label}).`): Promise<number[]> {
  const before = await query<{ product_id: string; state_id: string }>(
    stack,
    `SELECT DISTINCT ON (product_id) product_id, state_id FROM history_states
      WHERE product_id = ANY($1) AND classification = 'comparable' ORDER BY product_id, observed_to DESC, state_id DESC`,
    [productIds],
  );
  const beforeOf = new Map(before.map((r) => [r.product_id, r.state_id]));
  const nextDays = await query<{ product_id: string; next_day: string }>(
    stack,
    `SELECT product_id, greatest(max(observed_to) + 1, current_date)::text AS next_day FROM history_states WHERE product_id = ANY($1) GROUP BY product_id`,
    [productIds],
  );
  const observedOn = new Map(nextDays.map((r) => [r.product_id, r.next_day]));
  // The caffeine each product's newest state declares: the new label's differs from it, so the capture is a new state
  // (a random amount equal to the last one, one time in 200, made the same label and no state to open a candidate on).
  const lastCaffeine = await query<{ product_id: string; amount: string }>(
    stack,
    `SELECT DISTINCT ON (h.product_id) h.product_id, d.amount::text FROM history_states h
       JOIN declared_ingredients d ON d.state_id = h.state_id AND d.ingredient_id = 'ing_caffeine'
      WHERE h.product_id = ANY($1) ORDER BY h.product_id, h.observed_to DESC, h.state_id DESC`,
    [productIds],
  );
  const caffeineOf = new Map(lastCaffeine.map((r) => [r.product_id, Number(r.amount)]));
  const newCaffeine = (productId: string) => {
    const amount = 150 + Math.floor(Math.random() * 200);
    return amount === caffeineOf.get(productId) ? amount + 1 : amount;
  };
  const bundle = {
    captures: productIds.map((productId, i) => ({
      product_id: productId,
      source: { kind: 'manufacturer', url: `https://resilience.example/${productId}`, retailer: null },
      observed_at: observedOn.get(productId) ?? new Date().toISOString().slice(0, 10),
      preserved: { path: `captures/${label}/${randomBytes(6).toString('hex')}.html`, sha256: randomBytes(32).toString('hex') },
      label: {
        classification: 'comparable',
        serving: { size: 10 + i, unit: 'g', servings_per_container: 30, description: `1 scoop (${10 + i} g)` },
        blends: [],
        ingredients: [
          { declared_name: 'Caffeine Anhydrous', ingredient_id: 'ing_caffeine', amount: newCaffeine(productId), unit: 'mg' },
          { declared_name: 'L-Citrulline', ingredient_id: 'ing_l_citrulline', amount: 4 + i, unit: 'g' },
        ],
      },
      prices: [],
    })),
  };
  const file = join(tmpdir(), `resilience-bundle-${randomBytes(4).toString('hex')}.json`);
  await writeFile(file, JSON.stringify(bundle));
  const imported = await operator(stack, 'capture', 'import', '--file', file);
  const created = imported.states_created as string[];
  const afterRows = await query<{ product_id: string; state_id: string }>(stack, 'SELECT product_id, state_id FROM history_states WHERE state_id = ANY($1)', [created]);
  const afterOf = new Map(afterRows.map((r) => [r.product_id, r.state_id]));
  const ids: number[] = [];
  for (const productId of productIds) {
    const beforeState = beforeOf.get(productId);
    const afterState = afterOf.get(productId);
    if (!beforeState || !afterState) throw new Error(`${productId}: no comparable state to compare with, or no new state`);
    const candidate = await operator(stack, 'candidate', 'open', '--product', productId, '--dimension', 'formula', '--before', beforeState, '--after', afterState, '--summary', summary);
    ids.push(Number(candidate.candidate_id));
  }
  return ids;
}

/** Approves candidates (creating their Signals, unreleased) with a review note; returns the Signal ids. */
export async function approveCandidates(stack: RunningStack, candidateIds: number[], note: string): Promise<string[]> {
  const out: string[] = [];
  for (const id of candidateIds) out.push(String((await operator(stack, 'candidate', 'approve', String(id), '--reviewer', 'resilience reviewer', '--note', note)).signal_id));
  return out;
}

/** Releases every approved Signal as one batch, dated today or the day after the newest batch. */
export async function releaseApproved(stack: RunningStack): Promise<Record<string, unknown>> {
  const last = await query<{ d: string | null }>(stack, 'SELECT max(release_date)::text AS d FROM release_batches');
  const today = new Date().toISOString().slice(0, 10);
  const newest = last[0]?.d ?? null;
  const date = newest !== null && newest >= today ? new Date(Date.parse(`${newest}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) : today;
  // A batch per date and dated today: a later batch in the same test runs on the CLI's test clock.
  return operator({ ...stack, env: { ...stack.env, NODE_ENV: 'test', ER_TEST_TODAY: date } }, 'signal', 'release', '--by', 'resilience test');
}

/**
 * Curates and releases one new Signal per product: capture, candidate,
 * review, one dated release batch (release dates only move forward).
 */
export async function releaseNewSignals(stack: RunningStack, productIds: string[], label = 'resilience', opts: { natsDown?: boolean } = {}): Promise<string[]> {
  const candidates = await openCandidates(stack, productIds, label);
  const signalIds = await approveCandidates(stack, candidates, `internal review note ${label}`);
  try {
    await releaseApproved(stack);
  } catch (err) {
    // With NATS down the CLI refuses to report success (nats_unavailable), though the release itself is committed.
    if (!opts.natsDown || (err as { code?: unknown }).code !== 'nats_unavailable') throw err;
  }
  return signalIds;
}

/** Products that have a comparable state (so a new Signal can be curated on them), in a stable order. */
export async function comparableProducts(stack: RunningStack): Promise<string[]> {
  const rows = await query<{ product_id: string }>(
    stack,
    `SELECT DISTINCT p.product_id FROM products p JOIN history_states h ON h.product_id = p.product_id
      WHERE h.classification = 'comparable' AND p.retired_on IS NULL ORDER BY p.product_id`,
  );
  return rows.map((r) => r.product_id);
}

/**
 * Watchers in bulk, as fixtures: one organisation per account (bound to it),
 * each account watching `productId`. Tests that exercise the watch
 * capabilities themselves add watches through the API instead.
 */
export async function addWatchers(stack: RunningStack, productId: string, emails: string[]): Promise<string[]> {
  const accounts = emails.map((email) => ({ orgId: `org_${randomId()}`, accountId: `acc_${randomId()}`, email }));
  await query(
    stack,
    `WITH o AS (INSERT INTO organizations (org_id, name, plan_id) SELECT unnest($1::text[]), 'resilience watcher', 'pro'),
          a AS (INSERT INTO accounts (account_id, org_id, email) SELECT unnest($2::text[]), unnest($1::text[]), unnest($3::text[]))
     INSERT INTO watches (account_id, product_id) SELECT unnest($2::text[]), $4`,
    [accounts.map((a) => a.orgId), accounts.map((a) => a.accountId), accounts.map((a) => a.email), productId],
  );
  return accounts.map((a) => a.accountId);
}

export interface AlertRow {
  alert_id: string;
  signal_id: string;
  account_id: string;
  email: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

export function alertsFor(stack: RunningStack, signalIds: string[]): Promise<AlertRow[]> {
  return query<AlertRow>(stack, 'SELECT alert_id, signal_id, account_id, email, status, attempts, last_error FROM alerts WHERE signal_id = ANY($1) ORDER BY alert_id', [signalIds]);
}
