import { z } from 'zod';
import { METHODOLOGY_VERSION } from '../decisions';
import { count, date, open } from '../answer-parts';
import { EmptyPath, EmptyQuery } from '../requests';
import { defineCapability } from './define';

export const RecordVersionCoverage = open({
  record_version: z.string(),
  methodology_version: z.string(),
  supported_category: z.string(),
  counts: open({
    brands: count,
    products: count,
    products_by_depth_class: z.record(z.string(), count).describe('keyed by depth class'),
    retired_products: count,
    released_signals: count,
    withdrawn_signals: count,
    corrected_signals: count,
    ingredients: count,
    history_states: count,
  }),
  source_freshness: open({
    newest_observation_on: date.nullable(),
    newest_label_capture_on: date.nullable(),
    newest_price_observed_at: date.nullable(),
    newest_monitoring_check_on: date.nullable(),
    sources: count,
    unreadable_sources: count,
    unreadable_manufacturer_sources: count,
  }),
})
  .describe('get_record_version: coverage counts and source freshness of this record version')
  .meta({ id: 'RecordVersionCoverage' });

export const getRecordVersion = defineCapability({
  name: 'get_record_version',
  method: 'GET', path: '/api/v1/record/version', scope: 'framework:read', cost: 'nothing', service: 'record', tool: 'record.version', readOnly: true,
  description: 'Record version, methodology version, supported category, coverage counts and source freshness. Spends no budget.',
  params: EmptyPath, query: EmptyQuery, body: null,
  answer: { coverage: RecordVersionCoverage },
  refusals: [],
  paged: false,
  examples: {
    answer: {
      coverage: {
        record_version: 'rv_2026_11_24_001',
        methodology_version: METHODOLOGY_VERSION,
        supported_category: 'pre-workout',
        counts: {
          brands: 10,
          products: 42,
          products_by_depth_class: { REGISTERED: 2, CAPTURED: 10, TRACKED: 30 },
          retired_products: 1,
          released_signals: 61,
          withdrawn_signals: 1,
          corrected_signals: 2,
          ingredients: 48,
          history_states: 140,
        },
        source_freshness: {
          newest_observation_on: '2026-11-17',
          newest_label_capture_on: '2026-11-16',
          newest_price_observed_at: '2026-11-15',
          newest_monitoring_check_on: '2026-11-17',
          sources: 95,
          unreadable_sources: 1,
          unreadable_manufacturer_sources: 1,
        },
      },
    },
  },
  mcp: {
    title: 'Get the Record version',
    use: 'Answers sharing a record_version came from one committed state of the Record.',
    arguments: {},
  },
});
