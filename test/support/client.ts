import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningStack } from './stack';

/** A capability call through the stack's gateway, as a client makes it. */
export async function call(stack: RunningStack, key: string | null, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...extra };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, any>) : null }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * What an operator does to release a Signal on a demo product: import a new
 * label reading, open a candidate against the newest comparable state,
 * approve it and release the batch (operator CLI). Returns the Signal id and
 * the CLI's release output (which names the release's trace_id).
 */
export async function releaseSignalOn(
  stack: RunningStack,
  key: string,
  productId: string,
  /** A later release: a label read and released on a later date (one batch per release date) that differs from the last one imported. */
  opts: { date?: string; caffeineMg?: number } = {},
): Promise<{ signalId: string; release: Record<string, unknown> }> {
  const history = await call(stack, key, 'GET', `/api/v1/products/${productId}/history`);
  const before = (history.body!.history as Array<{ state_id: string; comparable: boolean }>).filter((s) => s.comparable).at(-1)!.state_id;
  const bundle = {
    captures: [
      {
        product_id: productId,
        source: { kind: 'manufacturer', url: 'https://ironvale.example/products/surge', retailer: null },
        observed_at: opts.date ?? new Date().toISOString().slice(0, 10),
        preserved: { path: `captures/test/${randomBytes(4).toString('hex')}.html`, sha256: randomBytes(32).toString('hex') },
        label: {
          classification: 'comparable',
          serving: { size: 12, unit: 'g', servings_per_container: 30, description: '1 scoop (12 g)' },
          blends: [],
          ingredients: [
            { declared_name: 'Caffeine Anhydrous', ingredient_id: 'ing_caffeine', amount: opts.caffeineMg ?? 280, unit: 'mg' },
            { declared_name: 'Beta-Alanine', ingredient_id: 'ing_beta_alanine', amount: 3.1, unit: 'g' },
          ],
        },
        prices: [],
      },
    ],
  };
  const file = join(tmpdir(), `test-bundle-${randomBytes(4).toString('hex')}.json`);
  await writeFile(file, JSON.stringify(bundle));
  const imported = await stack.admin('capture', 'import', '--file', file);
  const after = (imported.states_created as string[])[0]!;
  const candidate = await stack.admin('candidate', 'open', '--product', productId, '--dimension', 'formula', '--before', before, '--after', after, '--summary', 'Caffeine per serving changed (test release).');
  const signal = await stack.admin('candidate', 'approve', String(candidate.candidate_id), '--reviewer', 'test reviewer', '--note', 'checked against the capture');
  // A release is dated today at the latest; a later release day is simulated the way the CLI allows it in tests only.
  const release = opts.date
    ? await stack.adminWith({ NODE_ENV: 'test', ER_TEST_TODAY: opts.date }, 'signal', 'release', '--date', opts.date)
    : await stack.admin('signal', 'release');
  return { signalId: String(signal.signal_id), release };
}
