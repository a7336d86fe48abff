import { z } from 'zod';
import { LedgerEditionEntry, count, date, dateTime, editionStatus, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { EditionPath, EmptyQuery } from '../requests';
import { defineCapability } from './define';

const { product, signal, edition } = example;

const Cohort = open({ description: z.string(), denominator: count });

/** The published edition document: the value `edition_hash` is computed over. */
export const LedgerEditionDocument = open({
  edition_id: z.string(),
  period: z.string(),
  status: editionStatus,
  data_as_of: date,
  executive_summary: z.string(),
  confirmed_changes: z.array(
    open({
      signal_id: z.string(),
      product_id: z.string(),
      product_name: z.string(),
      dimension: z.string(),
      summary: z.string(),
      released_at: date,
      observation_window: open({ start: date, end: date, exact_change_date: date.nullable() }),
    }),
  ),
  category_benchmarks: z.array(open({ name: z.string(), value: z.number().nullable(), unit: z.string(), cohort: Cohort })),
  serving_economics: z.array(
    open({
      product_id: z.string(),
      product_name: z.string(),
      retailer: z.string(),
      observed_at: date,
      price_basis: z.string().describe('list'),
      price_cents: z.number().int(),
      servings_per_container: z.number(),
      servings_source: z
        .string()
        .optional()
        .describe(
          "where servings_per_container comes from when the price observation carries none of its own: 'label state' (the label state the price was matched to declares them) or 'derived: net contents 60 Caplet(s) ÷ serving size 1 Caplet(s)' (decision 2410); absent: the observation's own",
        ),
      price_per_serving_usd: z.number(),
      calculation: z.string(),
    }),
  ),
  product_comparison: z.array(
    open({
      product_id: z.string(),
      product_name: z.string(),
      state_id: z.string(),
      serving: open({ size: z.number().nullable(), unit: z.string().nullable(), servings_per_container: z.number().nullable() }).nullable(),
      declared: z.array(open({ ingredient_id: z.string().nullable(), declared_name: z.string(), amount: z.number().nullable(), unit: z.string().nullable() })),
    }),
  ),
  limitations: z.array(z.string()),
})
  .describe('the published edition document, exactly the value edition_hash is computed over; a closed edition serves it verbatim')
  .meta({ id: 'LedgerEditionDocument' });

export const LedgerEdition = open({
  edition: LedgerEditionEntry.extend({ closed_at: dateTime.nullable() }),
  document: LedgerEditionDocument,
  edition_hash: z.string().describe('SHA-256 (hex) of the canonical JSON of document'),
  hash_method: open({ algorithm: z.string(), encoding: z.string(), over: z.string(), canonical_json: z.string() }).describe('how a client recomputes edition_hash'),
})
  .describe('get_ledger_edition')
  .meta({ id: 'LedgerEdition' });

export const getLedgerEdition = defineCapability({
  name: 'get_ledger_edition',
  method: 'GET', path: '/api/v1/ledger/:edition_id', scope: 'ledger:read', cost: 'signal', service: 'ledger', tool: 'ledger.get', readOnly: true,
  description: 'One ledger edition: summary, confirmed changes released in the period, category benchmarks with cohorts, serving economics, comparison, limitations and edition_hash.',
  params: EditionPath, query: EmptyQuery, body: null,
  answer: { ledger: LedgerEdition },
  refusals: ['not_found'],
  paged: false,
  examples: {
    answer: {
      signals: [signal],
      ledger: {
        edition: { ...edition, closed_at: '2026-11-03T15:00:00.000Z' },
        document: {
          edition_id: edition.edition_id,
          period: edition.period,
          status: edition.status,
          data_as_of: edition.data_as_of,
          executive_summary: '8 confirmed changes were released in October 2026.',
          confirmed_changes: [
            { signal_id: signal.signal_id, product_id: product.product_id, product_name: 'Ironvale Nutrition Surge', dimension: 'formula', summary: signal.summary, released_at: '2026-10-14', observation_window: signal.observation_window },
          ],
          category_benchmarks: [{ name: 'median declared caffeine per serving', value: 250, unit: 'mg', cohort: { description: 'products with a comparable label declaring caffeine', denominator: 31 } }],
          serving_economics: [],
          product_comparison: [],
          limitations: ['Counts are of released Signals by release date, not by the date of the change.'],
        },
        edition_hash: '3f1c0e5b9d8a7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807f6e5d4c3b2a19080',
        hash_method: { algorithm: 'sha256', encoding: 'hex', over: 'ledger.document', canonical_json: 'object keys sorted recursively by UTF-16 code units; no whitespace; UTF-8 bytes' },
      },
    },
  },
  mcp: {
    title: 'Get one ledger edition',
    use: 'Quote proportions with the cohort denominator they name.',
    arguments: { edition_id: 'Edition id ed_YYYY_MM, as listed by ledger.list.' },
  },
});
