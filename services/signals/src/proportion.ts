/**
 * Every proportion an answer states names its cohort and denominator, so a
 * reader can never mistake "3 of 12 released Signals" for "3 of all products".
 */
export interface Proportion {
  share: number | null;
  numerator: number;
  denominator: number;
  cohort: string;
}

export function proportion(numerator: number, denominator: number, cohort: string): Proportion {
  return { share: denominator > 0 ? Math.round((numerator / denominator) * 10_000) / 10_000 : null, numerator, denominator, cohort };
}
