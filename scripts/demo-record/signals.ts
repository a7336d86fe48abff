/**
 * Review outcomes. Every change between two consecutive comparable states of
 * a product (formula or serving) and every list-price change becomes a
 * candidate; by default it was approved and released on the first release
 * Tuesday at least a week after its observation window closed. The table
 * below holds everything that departs from that default, so the unusual
 * cases are all in one place. Candidate keys:
 *   <product>:formula:<after state>   <product>:serving:<after state>
 *   <product>:price:<retailer>:<date the new list price took effect>
 */
export interface ReviewException {
  /** 'open': not reviewed yet; it must never surface. */
  outcome?: 'open';
  /** Released later than the default (held for a second capture, for example). */
  releaseOn?: string;
  /** The day of the change, only where it is truly known. */
  exactChangeDate?: { date: string; evidence: string };
  correction?: { recordedOn: string; firstSummary: string; publicNote: string; operatorNote: string };
  reviewNote?: string;
}

export const reviewExceptions: Record<string, ReviewException> = {
  'cobaltreed-apex-stim-free:formula:v2': { outcome: 'open' },
  'drumlin-vane-cairn-caps:formula:v2': { outcome: 'open' },
  'vantorra-original:price:liftcart:2026-11-06': { outcome: 'open' },
  'ironvale-pre-workout:formula:v2': {
    exactChangeDate: { date: '2026-08-10', evidence: "The manufacturer's dated formula-update notice names the day the new label shipped." },
    reviewNote: 'Both labels read line by line; the manufacturer notice dates the change to 2026-08-10.',
  },
  'tallowfen-kindle-caps:formula:v2': {
    releaseOn: '2026-08-25',
    reviewNote: 'Held until a second retailer capture confirmed the new L-Theanine amount.',
  },
  'ironvale-surge:formula:v2': {
    correction: {
      recordedOn: '2026-06-02',
      firstSummary: 'Beta-Alanine: 3.2 g → 1.6 g; Caffeine Anhydrous: 300 mg → 325 mg.',
      publicNote: 'The new Beta-Alanine amount was first recorded as 1.6 g; the captured label declares 2 g. The summary is corrected; the Signal keeps its address and release date.',
      operatorNote: 'Transcription error in review; re-read against the preserved capture.',
    },
  },
};

/** Candidates that are not plain consecutive-state or list-price changes. */
export interface ExtraCandidate {
  key: string;
  product: string;
  dimension: 'formula' | 'serving' | 'price';
  beforeState: string | null;
  afterState: string | null;
  windowStart: string;
  windowEnd: string;
  summary: string;
  outcome: 'refused' | 'withdrawn_duplicate';
  reviewNote: string;
  /** For the duplicate: when it was (wrongly) released and when it was withdrawn. */
  releaseOn?: string;
  duplicateOf?: string;
  withdrawal?: { recordedOn: string; publicNote: string; operatorNote: string };
}

export const extraCandidates: ExtraCandidate[] = [
  {
    key: 'cobaltreed-hydrate-pump:formula:v2',
    product: 'cobaltreed-hydrate-pump',
    dimension: 'formula',
    beforeState: 'v1',
    afterState: 'v2',
    windowStart: '2026-04-06',
    windowEnd: '2026-04-20',
    summary: 'Label layout differs between captures.',
    outcome: 'refused',
    reviewNote: 'New label artwork only: every declared line and the serving are identical. Not a change.',
  },
  {
    key: 'ironvale-surge:price:parcelgrain:promotion-2026-03',
    product: 'ironvale-surge',
    dimension: 'price',
    beforeState: null,
    afterState: null,
    windowStart: '2026-02-26',
    windowEnd: '2026-03-02',
    summary: 'Observed price at Parcelgrain Market fell from $46.99 to $35.99.',
    outcome: 'refused',
    reviewNote: 'The lower price is promotional; the list price did not change. A promotional-versus-list difference is never a price change.',
  },
  {
    key: 'hollowmere-steady-caps:formula:misread-2026-05',
    product: 'hollowmere-steady-caps',
    dimension: 'formula',
    beforeState: 'v1',
    afterState: null,
    windowStart: '2026-05-04',
    windowEnd: '2026-05-11',
    summary: 'Caffeine Anhydrous read as 1000 mg instead of 100 mg.',
    outcome: 'refused',
    reviewNote: "Text extraction misread '100 mg' on a curved label; the preserved capture shows 100 mg. No change.",
  },
  {
    key: 'hollowmere-pre-workout:formula:v2:duplicate',
    product: 'hollowmere-pre-workout',
    dimension: 'formula',
    beforeState: 'v1',
    afterState: 'v2',
    windowStart: '2026-07-13',
    windowEnd: '2026-07-27',
    summary: 'Caffeine Anhydrous: 200 mg → 250 mg.',
    outcome: 'withdrawn_duplicate',
    reviewNote: 'Approved from the Shelfwise Supply listing capture.',
    releaseOn: '2026-09-08',
    duplicateOf: 'hollowmere-pre-workout:formula:v2',
    withdrawal: {
      recordedOn: '2026-10-20',
      publicNote: 'Withdrawn: this Signal records the same change as an earlier Signal for this product; the product changed once. It keeps its address and release date.',
      operatorNote: 'Retailer capture was matched as a new change instead of the released one.',
    },
  },
];

export const REVIEWERS = ['demo-reviewer-1', 'demo-reviewer-2'] as const;
