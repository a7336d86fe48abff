import { SEARCH_RESULT_CAP, type RecordState } from '@evidence-record/contract';
import { answered, withSnapshot, type CallerContext, type CapabilityResult, type HandlerOf } from '@evidence-record/platform';
import type { RecordDeps } from '../deps';
import { normalizedField } from '../capability-inputs';
import { displayName, productIdentity, type ProductRow } from '../domain/identity';
import { distinct, limitation } from '../domain/limitations';
import { words } from '@evidence-record/record-store';
import { productsNamedExactly, productsOfBrandNamed, type NameMatch } from '../queries/products';

/** An ambiguous answer names at most this many candidates: it is a prompt to be precise, not a listing. */
const CANDIDATE_CAP = SEARCH_RESULT_CAP;

/**
 * resolve_product never guesses. The identifier is normalised with the same
 * rule as the stored names, then matched exactly against product names,
 * aliases and "brand + name/alias". One product: supported. Several, or a
 * bare brand name: ambiguous with candidates. None: unsupported.
 */
export const resolveProduct = (deps: RecordDeps): HandlerOf<'resolve_product'> => async ({ capability, body }, ctx) => {
  const normalized = normalizedField('identifier', body.identifier);

  return withSnapshot(deps.pool, async (db, record) => {
    const { matches, total } = await productsNamedExactly(db, normalized, brandSplits(normalized), CANDIDATE_CAP);

    if (total === 1) {
      const match = matches[0]!;
      return answered(ctx, record, [match.product_id], {
        capability,
        status: 'supported',
        summary: `The identifier names exactly one product in the Record: ${displayName(match)}.`,
        product: productIdentity(match),
        coverage: { identifier_normalized: normalized, matched_on: match.matched_on, matched_value: match.matched_value },
        limitations: distinct([
          match.is_demo && limitation.demoData,
          match.retired_on !== null && limitation.retired(match),
          match.depth_class === 'REGISTERED' && limitation.registered(match),
        ]),
        confidence: { level: 'high', basis: `Exact match on the normalised ${matchWords[match.matched_on]}; no other product carries it.` },
      });
    }

    if (total > 1) {
      return ambiguous(capability, ctx, record, normalized, matches, total, {
        summary: `The identifier is shared by ${total} products in the Record; pick one candidate, none is assumed.`,
        basis: 'The normalised identifier matches the name or an alias of several products.',
      });
    }

    const brand = await productsOfBrandNamed(db, normalized, CANDIDATE_CAP);
    if (brand) {
      return ambiguous(capability, ctx, record, normalized, brand.products, brand.total, {
        summary: `The identifier names the brand ${brand.brand_name}, not one product; pick one candidate, none is assumed.`,
        basis: 'The normalised identifier is a brand name; a brand is not a product.',
      });
    }

    return answered(ctx, record, [], {
      capability,
      status: 'unsupported',
      summary: 'The identifier names no product the Record covers.',
      product: null,
      coverage: { identifier_normalized: normalized },
      limitations: [
        limitation.absenceIsAboutTheRecord,
        'Resolution matches whole names, aliases and brand + name exactly (ignoring case, accents, punctuation and spacing); it never guesses a near match. search_record answers free-text questions.',
      ],
      confidence: { level: 'high', basis: 'No product name, alias or brand + name in the Record equals the normalised identifier.' },
    });
  });
};

function ambiguous(
  capability: 'resolve_product',
  ctx: CallerContext,
  record: RecordState,
  normalized: string,
  candidates: ProductRow[],
  total: number,
  say: { summary: string; basis: string },
): CapabilityResult {
  return answered(ctx, record, candidates.map((c) => c.product_id), {
    capability,
    status: 'ambiguous',
    summary: say.summary,
    product: null,
    candidates: candidates.map(productIdentity),
    coverage: { identifier_normalized: normalized, candidates_total: total, candidates_shown: candidates.length },
    limitations: distinct([
      candidates.some((c) => c.is_demo) && limitation.demoData,
      total > candidates.length && `${total} products match; ${candidates.length} are shown. Add the brand and full product name to resolve one.`,
      'The caller must choose a candidate; the first is not a default.',
    ]),
    confidence: { level: 'low', basis: say.basis },
  });
}

const matchWords: Record<NameMatch['matched_on'], string> = {
  name: 'product name',
  alias: 'alias',
  brand_and_name: 'brand and product name',
  brand_and_alias: 'brand and alias',
};

/** Every way a normalised identifier splits into a leading brand and a non-empty rest. */
export function brandSplits(normalized: string): Array<[string, string]> {
  const w = words(normalized);
  const splits: Array<[string, string]> = [];
  for (let i = 1; i < w.length; i++) splits.push([w.slice(0, i).join(' '), w.slice(i).join(' ')]);
  return splits;
}
