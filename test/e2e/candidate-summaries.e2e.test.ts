import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { answerSourceKinds, scopes } from '@evidence-record/contract';
import { dsldLabel, startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { parseDsldLabel } from '@evidence-record/sources';
import { call } from '@evidence-record/test-support/client';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { waitFor } from '@evidence-record/test-support/wait';
import { operatorCliArgs } from '@evidence-record/test-support/launcher';

/**
 * Candidates that say what changed (issue 23, item 8), end to end: the
 * monitor (run by the operator CLI against a local DSLD and retailer server)
 * reads a changed label and a moved list price and opens two candidates whose
 * summaries are derived from the two states; a curator approves one as is and
 * rewords the other (`candidate approve C --summary`); the release publishes
 * what was approved, and each alert email's "Before → after" lines are the
 * derived summary's own phrases. Every answer names a source's kind in the
 * contract's vocabulary (decision 1008).
 */
const exec = promisify(execFile);
let stack: RunningStack;
let src: SourceServer;
let monitorEnv: NodeJS.ProcessEnv;
let watcher: { key: string; email: string };
let productId = '';
const LABEL = 91_001;
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

const admin = (...args: string[]) => stack.adminWith(monitorEnv, ...args);

/** A refused CLI run: exit 1 and its JSON. */
async function refusedCli(...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  try {
    await exec(process.execPath, operatorCliArgs([...args, '--json']), { env: { ...stack.env, ...monitorEnv } });
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, json: JSON.parse(e.stdout.trim().split('\n').pop()!) as Record<string, unknown> };
  }
  throw new Error(`${args.join(' ')} was not refused`);
}

async function importBundle(captures: unknown[]): Promise<Record<string, unknown>> {
  const file = join(tmpdir(), `summaries-${randomBytes(4).toString('hex')}.json`);
  await writeFile(file, JSON.stringify({ captures }));
  return admin('capture', 'import', '--file', file);
}

async function query<T extends Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: stack.db.url });
  await c.connect();
  try {
    return (await c.query<T>(sql, values)).rows;
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  stack = await startStack('summaries', { services: ['record', 'signals', 'watch', 'email-worker', 'gateway'] });
  src = await startSourceServer();
  monitorEnv = { MONITOR_ALLOW_LOCALHOST: '1', MONITOR_HOST_INTERVAL_MS: '0', MONITOR_ROBOTS_TTL_MS: '0', DSLD_BASE_URL: `${src.origin}/dsld/v9` };

  // Today's label: 225 mg of caffeine and 3.2 g of beta-alanine. The product is registered from it.
  src.labels.set(LABEL, dsldLabel({ id: LABEL, brand: 'Summit Forge', name: 'Ridgeline Pre', caffeineMg: 225 }));
  const added = await admin('product', 'add-from-dsld', '--label', String(LABEL));
  productId = String(added.product_id);

  // Yesterday's reading of the same label source, as an operator imported it: 200 mg of caffeine, no beta-alanine.
  const parsed = parseDsldLabel(JSON.stringify(src.labels.get(LABEL)));
  if (!parsed.ok) throw new Error(parsed.reason);
  const caffeineId = (await query<{ ingredient_id: string }>(`SELECT ingredient_id FROM ingredient_synonyms WHERE synonym_norm = 'caffeine anhydrous'`))[0]?.ingredient_id ?? null;
  const r = parsed.reading;
  const offerUrl = src.offerUrl('shelfwise', 'ridgeline-pre');
  await admin('source', 'add', '--product', productId, '--kind', 'offer_page', '--url', offerUrl, '--retailer', 'Shelfwise');
  await importBundle([
    {
      product_id: productId,
      source: { kind: 'dsld_label', url: src.labelUrl(LABEL), retailer: null },
      observed_at: yesterday,
      preserved: { path: `captures/summaries/${randomBytes(4).toString('hex')}.json`, sha256: randomBytes(32).toString('hex') },
      label: {
        classification: 'comparable',
        serving: r.serving,
        blends: r.blends,
        ingredients: r.ingredients
          .filter((i) => i.declared_name !== 'Beta-Alanine')
          .map((i) => ({ declared_name: i.declared_name, ingredient_id: i.declared_name === 'Caffeine Anhydrous' ? caffeineId : null, amount: 200, unit: 'mg', operator: null, blend: null })),
      },
      prices: [],
    },
    {
      product_id: productId,
      source: { kind: 'offer_page', url: offerUrl, retailer: 'Shelfwise' },
      observed_at: yesterday,
      preserved: { path: `captures/summaries/${randomBytes(4).toString('hex')}.json`, sha256: randomBytes(32).toString('hex') },
      prices: [{ retailer: 'Shelfwise', price_cents: 4999, basis: 'list' }],
    },
  ]);
  // Today the page lists $54.99.
  src.offers.set('shelfwise/ridgeline-pre', { name: 'Ridgeline Pre', price: 54.99, listPrice: 54.99 });

  const k = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'summaries watcher' });
  const email = ((await stack.admin('org', 'show', k.orgId)).accounts as Array<{ email: string }>)[0]!.email;
  watcher = { key: k.key, email };
  expect((await call(stack, k.key, 'POST', '/api/v1/watch', { product_id: productId })).status).toBe(200);
}, 240_000);

afterAll(async () => {
  await src?.close();
  await stack?.stop();
});

interface Candidate {
  candidate_id: number;
  dimension: string;
  opened_by: string;
}

describe('candidates the monitor opens', () => {
  let formula: Candidate;
  let price: Candidate;

  it('carry a summary derived from the two states and from the two list prices', async () => {
    const ran = await admin('monitor', 'run-once', '--product', productId);
    expect(ran).toMatchObject({ checked: 2, valid: 2, states_created: 1, candidates_opened: 2 });
    const { candidates } = (await admin('candidate', 'list', '--product', productId, '--status', 'open')) as { candidates: Candidate[] };
    formula = candidates.find((c) => c.dimension === 'formula')!;
    price = candidates.find((c) => c.dimension === 'price')!;
    expect([formula.opened_by, price.opened_by]).toEqual(['monitor', 'monitor']);
    const shown = async (c: Candidate) => ((await admin('candidate', 'show', String(c.candidate_id))).candidate as { summary: string }).summary;
    expect(await shown(formula)).toBe('Beta-Alanine added (3200 mg); Caffeine Anhydrous: 200 mg → 225 mg');
    expect(await shown(price)).toBe('List price at Shelfwise: $49.99 → $54.99');
  }, 120_000);

  it('refuses a reworded summary that breaks the text rules, and approves one as proposed and one as the curator words it', async () => {
    for (const bad of ['too short', 'A summary\nover two lines of text', ' '.repeat(12)]) {
      const r = await refusedCli('candidate', 'approve', String(price.candidate_id), '--reviewer', 'Dana', '--note', 'Both prices read.', '--summary', bad);
      expect(r).toMatchObject({ code: 1, json: { error: 'invalid_text' } });
    }
    expect((await query<{ status: string }>('SELECT status FROM candidates WHERE candidate_id = $1', [price.candidate_id]))[0]!.status).toBe('open');

    const asProposed = await admin('candidate', 'approve', String(formula.candidate_id), '--reviewer', 'Dana', '--note', 'Both labels read line by line.');
    expect(asProposed).toMatchObject({ summary: 'Beta-Alanine added (3200 mg); Caffeine Anhydrous: 200 mg → 225 mg', reworded: false });
    const reworded = await admin('candidate', 'approve', String(price.candidate_id), '--reviewer', 'Dana', '--note', 'Page read twice.', '--summary', '  The list price at Shelfwise rose from $49.99 to $54.99 a container.  ');
    expect(reworded).toMatchObject({ summary: 'The list price at Shelfwise rose from $49.99 to $54.99 a container.', reworded: true });
    // The candidate keeps what it proposed; the Signal carries what was approved.
    const shown = (await admin('candidate', 'show', String(price.candidate_id))).candidate as { summary: string; signal_summary: string };
    expect(shown).toMatchObject({ summary: 'List price at Shelfwise: $49.99 → $54.99', signal_summary: 'The list price at Shelfwise rose from $49.99 to $54.99 a container.' });

    const released = await admin('signal', 'release', '--signal', String(asProposed.signal_id), '--signal', String(reworded.signal_id));
    expect((released.signal_ids as string[]).sort()).toEqual([String(asProposed.signal_id), String(reworded.signal_id)].sort());

    // What is released is what was approved: the feed and explain_signal.
    const feed = await call(stack, watcher.key, 'GET', `/api/v1/signals?product_id=${productId}`);
    const summaries = Object.fromEntries((feed.body!.signals as Array<{ signal_id: string; summary: string }>).map((s) => [s.signal_id, s.summary]));
    expect(summaries).toEqual({
      [String(asProposed.signal_id)]: 'Beta-Alanine added (3200 mg); Caffeine Anhydrous: 200 mg → 225 mg',
      [String(reworded.signal_id)]: 'The list price at Shelfwise rose from $49.99 to $54.99 a container.',
    });

    // Each alert email: the approved summary under "What changed", and the derived phrases as its "Before → after" lines.
    await waitFor('both alert emails', () => stack.smtp.messages.filter((m) => m.to.includes(watcher.email)).length >= 2, 60_000, 100);
    const mails = await Promise.all(stack.smtp.messages.filter((m) => m.to.includes(watcher.email)).map((m) => simpleParser(m.raw)));
    const formulaMail = mails.find((m) => (m.subject ?? '').includes('formula change'))!;
    const priceMail = mails.find((m) => (m.subject ?? '').includes('price change'))!;
    const flat = (t: string | undefined) => (t ?? '').replace(/\s+/g, ' ');
    expect(formulaMail.subject).toContain('— Beta-Alanine added (3200 mg)');
    expect(flat(formulaMail.text)).toContain('What changed: Beta-Alanine added (3200 mg); Caffeine Anhydrous: 200 mg → 225 mg');
    expect(formulaMail.text).toContain('Before → after:\n  Beta-Alanine added (3200 mg)\n  Caffeine Anhydrous: 200 mg → 225 mg\n');
    expect(priceMail.subject).toContain('— List price at Shelfwise: $49.99 → $54.99');
    expect(flat(priceMail.text)).toContain('What changed: The list price at Shelfwise rose from $49.99 to $54.99 a container.');
    expect(priceMail.text).toContain('Before → after:\n  List price at Shelfwise: $49.99 → $54.99\n');
  }, 180_000);

  it('every answer names a source kind in the contract\'s vocabulary', async () => {
    const vocabulary: readonly string[] = answerSourceKinds;
    const kinds: string[] = [];
    const feed = await call(stack, watcher.key, 'GET', `/api/v1/signals?product_id=${productId}`);
    for (const s of feed.body!.signals as Array<{ signal_id: string; dimension: string }>) {
      const explained = (await call(stack, watcher.key, 'GET', `/api/v1/signals/${s.signal_id}`)).body!;
      const refs = explained.source_references as Array<{ kind: string }>;
      const evidence = (explained.signals[0].evidence ?? []) as Array<{ kind: string }>;
      expect(refs.length, s.dimension).toBeGreaterThan(0);
      // The label's source is the manufacturer's (a DSLD label), the price's a retailer's (an offer page).
      expect([...new Set(refs.map((r) => r.kind))]).toEqual([s.dimension === 'price' ? 'retailer' : 'manufacturer']);
      kinds.push(...refs.map((r) => r.kind), ...evidence.map((r) => r.kind));
    }
    const product = (await call(stack, watcher.key, 'GET', `/api/v1/products/${productId}`)).body!;
    expect((product.source_references as Array<{ kind: string }>).map((r) => r.kind).sort()).toEqual(['manufacturer', 'retailer']);
    kinds.push(...(product.source_references as Array<{ kind: string }>).map((r) => r.kind), ...(product.coverage.source_health as Array<{ kind: string }>).map((r) => r.kind));
    const snapshot = (await call(stack, watcher.key, 'GET', '/api/v1/category/snapshot')).body!;
    const byKind = snapshot.coverage.sources.by_kind as Array<{ kind: string }>;
    expect(new Set(byKind.map((r) => r.kind)).size).toBe(byKind.length);
    kinds.push(...byKind.map((r) => r.kind));
    expect(kinds.filter((k) => !vocabulary.includes(k))).toEqual([]);
    expect(kinds).not.toContain('dsld_label');
    expect(kinds).not.toContain('offer_page');
  }, 60_000);
});
