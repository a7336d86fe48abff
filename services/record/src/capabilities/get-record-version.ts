import { SUPPORTED_CATEGORY, depthClasses } from '@evidence-record/contract';
import { RecordVersionCache, answered, withSnapshot, type HandlerOf } from '@evidence-record/platform';
import type { RecordDeps } from '../deps';
import { limitation } from '../domain/limitations';
import { recordCoverage, type CoverageRow } from '../queries/coverage';

/**
 * A record version names one committed state of one Record, so its coverage
 * never changes: counting the whole Record once per version (and per
 * database the process reads) is enough.
 */
const coverage = new RecordVersionCache<CoverageRow>(16);

/**
 * The Record's version, methodology version, supported category, coverage
 * counts and source freshness. It names no entity and spends no budget.
 */
export const getRecordVersion = (deps: RecordDeps): HandlerOf<'get_record_version'> => async ({ capability }, ctx) =>
  withSnapshot(deps.pool, async (db, record) => {
    let counts = coverage.get(deps.pool, record.record_version);
    if (!counts) {
      counts = await recordCoverage(db);
      coverage.set(deps.pool, record.record_version, counts);
    }
    const byDepth = Object.fromEntries(depthClasses.map((d) => [d, counts.products_by_depth?.[d] ?? 0]));
    const newestObservation = [counts.newest_capture_on, counts.newest_price_observed_at, counts.newest_check_on].filter((d): d is string => d !== null).sort().at(-1) ?? null;

    return answered(ctx, record, [], {
      capability,
      status: 'supported',
      summary: `The Record is at version ${record.record_version} under methodology ${record.methodology_version}, covering the ${SUPPORTED_CATEGORY} category.`,
      coverage: {
        record_version: record.record_version,
        methodology_version: record.methodology_version,
        supported_category: SUPPORTED_CATEGORY,
        counts: {
          brands: counts.brands,
          products: counts.products,
          products_by_depth_class: byDepth,
          retired_products: counts.retired_products,
          released_signals: counts.released_signals,
          withdrawn_signals: counts.withdrawn_signals,
          corrected_signals: counts.corrected_signals,
          ingredients: counts.ingredients,
          history_states: counts.history_states,
        },
        source_freshness: {
          newest_observation_on: newestObservation,
          newest_label_capture_on: counts.newest_capture_on,
          newest_price_observed_at: counts.newest_price_observed_at,
          newest_monitoring_check_on: counts.newest_check_on,
          sources: counts.sources,
          unreadable_sources: counts.unreadable_sources,
          unreadable_manufacturer_sources: counts.unreadable_manufacturer_sources,
        },
      },
      limitations: [
        ...(counts.demo_products > 0 ? [limitation.demoData] : []),
        ...(counts.unreadable_sources > 0
          ? [`${counts.unreadable_sources} source${counts.unreadable_sources === 1 ? ' is' : 's are'} currently unreadable; answers about those products say so.`]
          : []),
        'Counts describe the Record at this version, not the market: a product the Record does not cover is absent from them.',
      ],
      confidence: { level: 'high', basis: 'Counted from the Record in the same snapshot as the record version.' },
    });
  });
