import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilityList, scopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send, type Reply } from '../resilience/support/http';
import { approveCandidates, customer, openCandidates, operator, query, releaseApproved, type Customer } from '../resilience/support/operator';

/**
 * OWASP API3:2023 Broken Object Property Level Authorization. Requests:
 * every body and query refuses unknown properties (no mass assignment).
 * Answers: none of the Record's internal properties ever leaves — capture
 * ids, preserved-source paths and hashes, review and operator notes,
 * reviewers, unreviewed or refused candidates, unreleased Signals, customer
 * identifiers, emails, key hashes — whether as a field name or as a value
 * copied from the database. Every capability is driven over the whole demo
 * Record, and every answer is scanned.
 */
let stack: RunningStack;
let caller: Customer;
let other: Customer;
const marker = randomBytes(4).toString('hex');
const markers = {
  review: `REVIEW-NOTE-${marker}`,
  operator: `OPERATOR-NOTE-${marker}`,
  open: `OPEN-CANDIDATE-${marker}`,
  refused: `REFUSED-CANDIDATE-${marker}`,
  refusedNote: `REFUSAL-NOTE-${marker}`,
  unreleased: `UNRELEASED-SIGNAL-${marker}`,
  curator: `CURATOR-${marker}`,
};
let unreleasedSignal: string;
const answers: Array<{ capability: string; path: string; reply: Reply }> = [];

beforeAll(async () => {
  stack = await startStack('sec-api3', { services: ['record', 'signals', 'ledger', 'watch', 'gateway'] });
  caller = await customer(stack, { plan: 'demo', scopes, email: `caller-${marker}@example.test` });
  other = await customer(stack, { plan: 'pro', scopes: ['watch:manage'], email: `other-${marker}@example.test` });
  // Curation leaves internal traces of every kind; none may surface.
  const products = (await query<{ product_id: string }>(
    stack,
    `SELECT DISTINCT h.product_id FROM history_states h JOIN products p USING (product_id) WHERE h.classification = 'comparable' AND p.retired_on IS NULL ORDER BY 1 LIMIT 4`,
  )).map((r) => r.product_id);
  const [released] = await approveCandidates(stack, await openCandidates(stack, [products[0]!], 'released', 'Declared caffeine per serving changed.'), markers.review);
  await releaseApproved(stack);
  await operator(stack, 'signal', 'correct', released!, '--note', 'The declared amount was re-read.', '--operator-note', markers.operator);
  await openCandidates(stack, [products[1]!], 'open', markers.open);
  const [refused] = await openCandidates(stack, [products[2]!], 'refused', markers.refused);
  await operator(stack, 'candidate', 'refuse', String(refused), '--reviewer', 'resilience reviewer', '--note', markers.refusedNote);
  const [approved] = await openCandidates(stack, [products[3]!], 'unreleased', markers.unreleased);
  unreleasedSignal = (await approveCandidates(stack, [approved!], `${markers.review} (unreleased)`))[0]!;
  await send(stack.baseUrl, 'POST', '/api/v1/watch', { key: other.key, body: { product_id: products[0] } });
  // A curated regulatory record, corrected: who added and corrected it stays on the operator side.
  const added = await operator(stack, 'regulatory', 'add', '--ingredient', 'ing_caffeine', '--authority', 'U.S. Food and Drug Administration', '--kind', 'consumer_advisory',
    '--date', '2024', '--title', 'Composed test advisory on caffeine powders', '--what', 'Public information the agency issued about caffeine sold as a bulk powder.',
    '--url', 'https://www.fda.gov/food/composed-test-caffeine-advisory', '--by', markers.curator);
  await operator(stack, 'regulatory', 'correct', String(added.entry_id), '--note', 'Dated to the month it was issued.', '--date', '2024-03', '--by', markers.curator);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

async function ask(capability: string, method: string, path: string, body?: unknown): Promise<Reply> {
  const reply = await send(stack.baseUrl, method, path, { key: caller.key, ...(body !== undefined ? { body } : {}) });
  answers.push({ capability, path, reply });
  return reply;
}

/** Field names that name internal things; none may appear anywhere in an answer. */
const forbiddenKeys = [
  'capture_id', 'content_sha256', 'sha256', 'storage_path', 'preserved', 'preserved_path', 'review_note', 'reviewer', 'operator_note',
  'candidate_id', 'batch_id', 'released_by', 'source_id', 'secret', 'secret_sha256', 'password', 'account_id', 'org_id', 'key_id', 'email',
  'smtp_message_id', 'is_demo', 'name_norm', 'txid', 'added_by', 'recorded_by', 'research_id', 'regulatory_id',
];

function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

describe('API3 property-level authorization', () => {
  it('refuses unknown properties in every body and every query', async () => {
    for (const cap of capabilityList) {
      const path = cap.path.replace(':product_id', 'prd_000000000000').replace(':signal_id', 'sig_000000000000').replace(':edition_id', 'ed_2026_01');
      const q = await send(stack.baseUrl, cap.method, `${path}?internal_note=1`, { key: caller.key, ...(cap.body ? { body: {} } : {}) });
      expect([q.status, q.code], `${cap.name} query`).toEqual([400, 'invalid_request']);
      expect(JSON.stringify(q.body.error.details), cap.name).toContain('internal_note');
      if (cap.body) {
        const b = await send(stack.baseUrl, cap.method, path, { key: caller.key, body: { status: 'approved', account_id: 'acc_x', internal_note: 'x' } });
        expect([b.status, b.code], `${cap.name} body`).toEqual([400, 'invalid_request']);
        expect(b.body.error.details.issues.some((i: { problem: string }) => i.problem === 'unknown property'), cap.name).toBe(true);
      }
    }
  });

  it('never returns an internal property, by name or by value, from any capability over the whole Record', async () => {
    const ids = async (sql: string) => (await query<{ id: string }>(stack, sql)).map((r) => r.id);
    const products = await ids('SELECT product_id AS id FROM products ORDER BY 1');
    const signals = await ids('SELECT signal_id AS id FROM signals WHERE released_on IS NOT NULL ORDER BY 1');
    const editions = await ids('SELECT edition_id AS id FROM ledger_editions ORDER BY 1');
    const aliases = await ids('SELECT alias AS id FROM product_aliases ORDER BY 1 LIMIT 20');

    await ask('get_record_version', 'GET', '/api/v1/record/version');
    for (const p of products) {
      await ask('get_product_record', 'GET', `/api/v1/products/${p}`);
      await ask('get_formula_history', 'GET', `/api/v1/products/${p}/history`);
      await ask('get_serving_economics', 'GET', `/api/v1/products/${p}/serving-economics`);
      await ask('get_research_context', 'POST', '/api/v1/research/context', { product_id: p });
      await ask('get_regulatory_context', 'POST', '/api/v1/regulatory/context', { product_id: p });
    }
    for (let i = 0; i + 1 < products.length; i += 2) await ask('compare_products', 'POST', '/api/v1/products/compare', { product_ids: [products[i], products[i + 1]] });
    for (const s of signals) await ask('explain_signal', 'GET', `/api/v1/signals/${s}`);
    for (const base of ['/api/v1/signals?limit=25', '/api/v1/category/snapshot?limit=25&from=2026-08-23&to=2026-11-22']) {
      let cursor: string | null = null;
      let pages = 0;
      do {
        const r = await ask(base.includes('snapshot') ? 'get_category_snapshot' : 'list_signal_changes', 'GET', `${base}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(r.status, r.text.slice(0, 200)).toBe(200);
        cursor = r.body.next_cursor ?? null;
      } while (cursor && ++pages < 20);
    }
    for (const q of ['caffeine', 'citrulline', 'beta-alanine', 'pre workout', 'pump', 'stim free']) await ask('search_record', 'POST', '/api/v1/record/search', { query: q });
    for (const a of aliases) await ask('resolve_product', 'POST', '/api/v1/products/resolve', { identifier: a });
    await ask('list_ledger_editions', 'GET', '/api/v1/ledger');
    for (const e of editions) await ask('get_ledger_edition', 'GET', `/api/v1/ledger/${e}`);
    for (const p of products.slice(0, 5)) await ask('watch_product', 'POST', '/api/v1/watch', { product_id: p });
    await ask('list_watched_products', 'GET', '/api/v1/watch');
    for (const period of ['2026-11', '2026-10', '2026-09', '2026-01']) await ask('get_watch_receipt', 'GET', `/api/v1/watch/receipt?period=${period}`);
    await ask('unwatch_product', 'DELETE', `/api/v1/watch/${products[0]}`);
    // An approved but unreleased Signal answers exactly as an invented id does.
    const hidden = await ask('explain_signal', 'GET', `/api/v1/signals/${unreleasedSignal}`);
    const invented = await ask('explain_signal', 'GET', '/api/v1/signals/sig_zzzzzzzzzzzz');
    expect([hidden.status, hidden.code]).toEqual([404, 'not_found']);
    expect({ ...hidden.body, request_id: null }).toEqual({ ...invented.body, request_id: null });

    const served = answers.filter((a) => a.reply.status === 200);
    expect(new Set(served.map((a) => a.capability)).size).toBe(18);
    expect(served.length).toBeGreaterThan(300);

    // Values straight from the database that must never be copied into an answer.
    const values = async (sql: string) => (await query<{ v: string }>(stack, sql)).map((r) => r.v).filter((v) => v && v.length >= 6);
    const secretValues: Array<[string, string[]]> = [
      ['preserved-source hash', await values('SELECT content_sha256 AS v FROM captures')],
      ['preserved-source path', await values('SELECT storage_path AS v FROM captures')],
      ['review note', await values('SELECT review_note AS v FROM candidates WHERE review_note IS NOT NULL')],
      ['reviewer', await values('SELECT DISTINCT reviewer AS v FROM candidates WHERE reviewer IS NOT NULL')],
      ['operator note', await values('SELECT operator_note AS v FROM signal_corrections WHERE operator_note IS NOT NULL')],
      ['key hash', await values('SELECT secret_sha256 AS v FROM api_keys')],
      ['key id', await values('SELECT key_id AS v FROM api_keys')],
      ['organisation id', await values('SELECT org_id AS v FROM organizations')],
      ['account id', await values('SELECT account_id AS v FROM accounts')],
      ['email', await values('SELECT email AS v FROM accounts')],
      ['released by', await values('SELECT DISTINCT released_by AS v FROM release_batches')],
      ['unreleased Signal', [unreleasedSignal]],
      ['curator of research and regulatory entries', await values(`SELECT DISTINCT added_by AS v FROM regulatory_records WHERE added_by <> 'demo Record seed' UNION SELECT DISTINCT recorded_by FROM context_corrections`)],
      ['curation markers', Object.values(markers)],
    ];
    const sourceUrls = await values('SELECT url AS v FROM sources');

    const leaks: string[] = [];
    for (const { capability, path, reply } of answers) {
      for (const key of keysOf(reply.body)) if (forbiddenKeys.includes(key)) leaks.push(`${capability} ${path}: field ${key}`);
      for (const [what, list] of secretValues) for (const v of list) if (reply.text.includes(v)) leaks.push(`${capability} ${path}: ${what} ${v.slice(0, 40)}`);
      // Watch answers omit source URLs (spec: Resources).
      if (capability.includes('watch')) for (const url of sourceUrls) if (reply.text.includes(url)) leaks.push(`${capability} ${path}: source URL ${url}`);
    }
    expect([...new Set(leaks)].slice(0, 30)).toEqual([]);
  });
});
