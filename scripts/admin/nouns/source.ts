import { addSource, listSources, policyOf, setSourceState, sourceKinds } from '@evidence-record/sources';
import { UsageError, optional, positional, required, type Noun } from '../cli';
import { monitorSettings } from './monitor';

/** The kinds `source add` takes: the ones the monitor reads (services/sources/src/kinds). */
const kinds: readonly string[] = sourceKinds;

/** Sources: what the monitor reads for a product (docs/monitor.md). */
export const source: Noun = {
  noun: 'source',
  summary: 'add, list, pause and resume the sources the monitor reads (source monitor)',
  verbs: {
    add: {
      usage: `--product P --kind ${kinds.join('|')} --url URL [--every 7d] [--retailer NAME] [--variant SKU|GTIN|MPN (offer_page)]`,
      run: async ({ pool, flags, env }) => {
        const kind = required(flags, 'kind');
        if (!kinds.includes(kind)) throw new UsageError(`--kind is ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}`);
        const out = await addSource(
          pool,
          { product_id: required(flags, 'product'), kind: kind as (typeof sourceKinds)[number], url: required(flags, 'url'), every: optional(flags, 'every') ?? '7d', retailer: optional(flags, 'retailer') ?? null, variant: optional(flags, 'variant') ?? null },
          policyOf(monitorSettings(env)),
        );
        return { source_id: out.source_id, product_id: out.product_id, kind: out.kind, url: out.url, variant: out.variant, next_check_due: out.next_check_due };
      },
    },
    list: {
      usage: '--product P',
      run: async ({ pool, flags }) => ({ sources: await listSources(pool, required(flags, 'product')) }),
    },
    pause: {
      usage: '<source_id>',
      run: async ({ pool, flags }) => setSourceState(pool, positional(flags, 0, 'source_id'), 'paused'),
    },
    resume: {
      usage: '<source_id>   (due at once)',
      run: async ({ pool, flags }) => setSourceState(pool, positional(flags, 0, 'source_id'), 'active'),
    },
  },
};
