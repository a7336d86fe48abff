import type { Capability } from '@evidence-record/contract';

/**
 * What one request tells the extraction score. Pure: decided from the
 * capability, its validated input and the upstream's outcome.
 *
 * - a not_found answer: the id that was not found (distinct ids per day, and
 *   ids that differ from the previous miss in a character or two);
 * - a resolve identifier or search query (distinct ones per day);
 * - a date window on the feed or the snapshot (distinct ones per day);
 * - a feed `since` without `until`: scores only if it moves backwards.
 *
 * Anything continued with a cursor the service issued is following, never
 * scored, and so is an answer that names nothing new.
 */
export type Observation =
  | { kind: 'not_found'; value: string }
  | { kind: 'identifier'; value: string }
  | { kind: 'window'; value: string }
  | { kind: 'since'; value: string; filter: string };

export interface CapabilityInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

const MAX_VALUE = 200;

// Printable ASCII is its own NFKC form: most identifiers skip the Unicode normalisation.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function normalise(text: string): string {
  const nfkc = PRINTABLE_ASCII.test(text) ? text : text.normalize('NFKC');
  return nfkc.toLowerCase().replace(/\s+/g, ' ').trim().slice(0, MAX_VALUE);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

function notFoundSubject(input: CapabilityInput): string {
  const pathId = Object.values(input.params)[0];
  if (typeof pathId === 'string') return pathId;
  const body = input.body ?? {};
  if (typeof body.product_id === 'string') return body.product_id;
  if (Array.isArray(body.product_ids)) return [...(body.product_ids as string[])].sort().join('+');
  if (Array.isArray(body.ingredient_ids)) return [...(body.ingredient_ids as string[])].sort().join('+');
  return JSON.stringify(body).slice(0, MAX_VALUE);
}

export function observe(capability: Capability, input: CapabilityInput, upstreamStatus: number, errorCode: string | null, answerStatus: string | null = null): Observation | null {
  if (errorCode === 'not_found') return { kind: 'not_found', value: notFoundSubject(input).slice(0, MAX_VALUE) };
  // Unwatching an id the Record does not hold succeeds (spec, Behaviours 9) with `unsupported`; as a
  // probe of which ids exist it tells what a not_found would, so it is scored as one (decision 0311).
  if (capability.name === 'unwatch_product' && answerStatus === 'unsupported') return { kind: 'not_found', value: notFoundSubject(input).slice(0, MAX_VALUE) };
  if (upstreamStatus !== 200) return null;
  const q = input.query;
  switch (capability.name) {
    case 'resolve_product':
      return { kind: 'identifier', value: `resolve:${normalise(str(input.body?.identifier))}` };
    case 'search_record':
      return { kind: 'identifier', value: `search:${normalise(str(input.body?.query))}` };
    case 'list_signal_changes': {
      if (q.cursor !== undefined) return null;
      const filter = ['product_id', 'brand', 'dimension', 'category'].map((f) => str(q[f])).join('|');
      if (q.until !== undefined) return { kind: 'window', value: `feed:${str(q.since)}..${str(q.until)}|${filter}` };
      if (q.since !== undefined) return { kind: 'since', value: str(q.since), filter };
      return null;
    }
    case 'get_category_snapshot':
      if (q.cursor !== undefined) return null;
      return { kind: 'window', value: `snapshot:${str(q.from)}..${str(q.to)}` };
    default:
      return null;
  }
}
