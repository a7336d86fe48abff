import { approveCandidate, listCandidates, openCandidate, refuseCandidate, showCandidate } from '@evidence-record/curation';
import { UsageError, operatorName, optional, positional, required, type Flags, type Noun } from '../cli';

function candidateId(flags: Flags): number {
  const raw = positional(flags, 0, 'candidate_id');
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new UsageError(`${raw} is not a candidate id`);
  return id;
}

/** Candidates: proposed changes between two comparable states, reviewed before they can become Signals. */
export const candidate: Noun = {
  noun: 'candidate',
  summary: 'propose a change between two comparable states, then approve or refuse it (curation)',
  verbs: {
    open: {
      usage:
        '--product P --dimension formula|serving|identity --before S1 --after S2 [--summary TEXT] [--window-start D --window-end D] [--exact-date D] [--by NAME]\n' +
        '    (without --summary the summary is derived from the two sides, in the alert email\'s words)\n' +
        '    price changes: --dimension price --before-price OBS1 --after-price OBS2 [--before S1 --after S2]',
      run: async ({ pool, flags, env }) => {
        if (flags.flags.summary === true) throw new UsageError('--summary needs the summary text (or leave it out to derive it)');
        // opened_by: the operator's name (--by, else the shell's user), as `candidate list` shows it beside the monitor's.
        const out = await openCandidate(
          pool,
          {
            product_id: required(flags, 'product'),
            dimension: required(flags, 'dimension') as never,
            before_state_id: optional(flags, 'before'),
            after_state_id: optional(flags, 'after'),
            before_price_id: optional(flags, 'before-price') as never,
            after_price_id: optional(flags, 'after-price') as never,
            window_start: optional(flags, 'window-start'),
            window_end: optional(flags, 'window-end'),
            exact_change_date: optional(flags, 'exact-date'),
            summary: optional(flags, 'summary'),
          },
          operatorName({ flags, env }),
        );
        return { ...out, status: 'open' };
      },
    },
    show: {
      usage: '<candidate_id>   (the two sides\' declared lines and their diff, the evidence reads, the derived window)',
      run: async ({ pool, flags }) => ({ candidate: await showCandidate(pool, candidateId(flags)) }),
    },
    list: {
      usage: '[--product P] [--status open|approved|refused]',
      run: async ({ pool, flags }) => {
        const status = optional(flags, 'status');
        if (status !== undefined && !['open', 'approved', 'refused'].includes(status)) throw new UsageError('--status is open, approved or refused');
        const productId = optional(flags, 'product');
        if (productId !== undefined && !/^prd_[0-9a-z]{12}$/.test(productId)) throw new UsageError(`${productId} is not a product id`);
        return { candidates: await listCandidates(pool, { product_id: productId ?? null, status: (status as 'open') ?? null }) };
      },
    },
    approve: {
      usage: '<candidate_id> --reviewer R --note N [--summary TEXT]   (creates the Signal with the candidate\'s summary, or TEXT as the curator words it; it surfaces only after `signal release`)',
      run: async ({ pool, flags }) => {
        if (flags.flags.summary === true) throw new UsageError('--summary needs the summary text');
        const out = await approveCandidate(pool, {
          candidate_id: candidateId(flags),
          reviewer: required(flags, 'reviewer'),
          note: required(flags, 'note'),
          summary: optional(flags, 'summary'),
        });
        return { ...out, status: 'approved', released: false };
      },
    },
    refuse: {
      usage: '<candidate_id> --reviewer R --note N',
      run: async ({ pool, flags }) => {
        const out = await refuseCandidate(pool, { candidate_id: candidateId(flags), reviewer: required(flags, 'reviewer'), note: required(flags, 'note') });
        return { ...out, status: 'refused' };
      },
    },
  },
};
