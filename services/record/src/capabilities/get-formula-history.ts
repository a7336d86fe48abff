import type { AnswerStatus } from '@evidence-record/contract';
import { answered, type HandlerOf } from '@evidence-record/platform';
import { presentedSignals, type SignalOut } from '@evidence-record/record-store';
import type { RecordDeps } from '../deps';
import { withProductSnapshot } from '../capability-inputs';
import { historyState } from '../domain/facts';
import { displayName, productIdentity } from '../domain/identity';
import { distinct, limitation } from '../domain/limitations';
import { statesOfProduct, type StateRow } from '../queries/label';

/**
 * The timeline of a product's label states, how deep the recoverable history
 * goes, which states can be compared, and the released Signals between them.
 * A Signal's observation window is never turned into a change date, and an
 * unreviewed candidate never appears: only released Signals are read.
 */
export const getFormulaHistory = (deps: RecordDeps): HandlerOf<'get_formula_history'> => async ({ capability, params }, ctx) => {
  const productId = params.product_id;

  return withProductSnapshot(deps.pool, productId, async (db, record, product) => {
    const states = await statesOfProduct(db, productId);
    // The same Signal the signal feed, explain_signal and get_ledger_edition give: one query and one presenter (the Record store's).
    const signals = await presentedSignals(db, { productId }, deps.publicBaseUrl);

    const comparableCount = states.filter((s) => s.classification === 'comparable').length;
    const first = states[0];
    const last = states.at(-1);
    const withdrawn = signals.filter((s) => s.status === 'withdrawn');
    const undated = signals.some((s) => s.observation_window.exact_change_date === null);

    const status: AnswerStatus = states.length === 0 || product.depth_class === 'REGISTERED' ? 'partial' : 'supported';

    return answered(ctx, record, [productId], {
      capability,
      status,
      summary:
        states.length === 0
          ? `The Record holds no label state of ${displayName(product)}, so it has no formula history.`
          : `The formula history of ${displayName(product)}: ${states.length} label state${states.length === 1 ? '' : 's'} and ${signals.length} released Signal${signals.length === 1 ? '' : 's'}${withdrawn.length > 0 ? ` (${withdrawn.length} since withdrawn)` : ''}.`,
      product: productIdentity(product),
      history: states.map((s) => historyState(s, comparableCount)),
      signals,
      coverage: {
        depth_class: product.depth_class,
        depth_of_history: depthOfHistory(states),
        first_observed: first?.observed_from ?? null,
        last_observed: last ? maxObservedTo(states) : null,
        states: states.length,
        comparable_states: comparableCount,
        comparable_pairs: comparableCount >= 2 ? comparableCount - 1 : 0,
        released_signals: signals.length,
        withdrawn_signals: withdrawn.length,
      },
      limitations: distinct([
        product.is_demo && limitation.demoData,
        product.retired_on !== null && limitation.retired(product),
        states.length === 0 && limitation.registered(product),
        first && limitation.recordReach(first.observed_from),
        states.length === 1 && limitation.singleState,
        undated && limitation.observationWindow,
        states.length > 0 && limitation.onlyReleasedSignals,
        ...withdrawn.map((s) => limitation.withdrawnSignal(s.signal_id, withdrawalDate(s))),
      ]),
      confidence:
        comparableCount >= 2
          ? { level: 'high', basis: `${comparableCount} comparable label states; changes between them are reported only as reviewed Signals.` }
          : states.length > 0
            ? { level: 'medium', basis: 'Fewer than two comparable label states: the history cannot show a confirmed formula change.' }
            : { level: 'low', basis: 'No label state is captured.' },
    });
  });
};

function withdrawalDate(signal: SignalOut): string {
  return signal.corrections.filter((c) => c.kind === 'withdrawal').at(-1)?.recorded_on ?? signal.review.released_at;
}

function maxObservedTo(states: StateRow[]): string {
  return states.reduce((max, s) => (s.observed_to > max ? s.observed_to : max), states[0]!.observed_to);
}

/**
 * How far back the Record can reconstruct this product's label: none, one
 * state, presence only, or comparable states across a span of days.
 */
function depthOfHistory(states: StateRow[]): { class: string; span_days: number } {
  if (states.length === 0) return { class: 'none', span_days: 0 };
  const first = Date.parse(states[0]!.observed_from);
  const last = Date.parse(maxObservedTo(states));
  const span_days = Math.round((last - first) / 86_400_000);
  const comparable = states.filter((s) => s.classification === 'comparable').length;
  const klass = comparable >= 2 ? 'comparable_timeline' : comparable === 1 ? 'single_comparable_state' : states.some((s) => s.classification === 'presence_only') ? 'presence_only' : 'identity_only';
  return { class: klass, span_days };
}
