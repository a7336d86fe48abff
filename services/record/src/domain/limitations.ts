import { displayName, type ProductRow } from './identity';

/**
 * The limitation sentences answers carry, in one place so that the same
 * semantic is always said the same way (spec: "Semantics the answers keep").
 */
export const limitation = {
  demoData: 'Demonstration data: fictional brands and products.',
  undisclosedNotAbsent:
    'An ingredient that is not on this declared list is undisclosed, not absent: the Record holds only what the label declares.',
  amountsUndisclosed: (count: number) =>
    `${count} declared ingredient${count === 1 ? ' is' : 's are'} named without an amount (for example inside a proprietary blend); an amount of null means undisclosed, never zero.`,
  declaredZero: (count: number) =>
    `${count} declared ingredient${count === 1 ? ' is' : 's are'} declared as 0 (for example "Trans Fat 0 g"): the label states an amount of zero, which is a declared fact, not an undisclosed amount.`,
  boundedAmounts: (count: number) =>
    `${count} declared amount${count === 1 ? ' is' : 's are'} stated as a bound (for example "Total Carbohydrates <1 g"): it is shown with its operator ("<"), its amount is the bound and not a quantity, and the service calculates nothing from it.`,
  labelWords:
    "Other ingredients and label statements quote what the label prints beside its Supplement Facts, as last read: no amount is read out of a statement's words into a declared line, a precaution is the label's and not the service's advice, and a change in them alone is not a reviewed change.",
  labelOffMarket: (labelId: number, since: string | null) =>
    `DSLD marks this product's newest label (DSLD label ${labelId}) off the market${since ? ` since ${since}` : ''}; the Record keeps the product and its history.`,
  observationWindow:
    'An observation window runs from the last observation before a change to the first observation after it; it is not the date of the change, and exact_change_date is null unless the Record knows the day.',
  onlyReleasedSignals:
    'Only reviewed, released Signals are reported as changes; a difference between two states without a Signal is not a confirmed change.',
  doseComparison: 'A dose comparison is not evidence of effectiveness, safety or suitability, and this comparison names no winner.',
  unitsAsDeclared: 'Amounts are shown in the units each label declares; they are not converted or adjusted for form.',
  pricePerServing:
    'Price per serving is a calculation by the service (observed price divided by servings per container), not a manufacturer figure.',
  promotionalIsNotAChange:
    'Promotional, subscription and list prices are kept apart: a promotional price beside a list price is a discount at the time observed, never a price change.',
  onlyListIsList: 'A price is called a list price only where the Record recorded it as one.',
  listObservationsAreDated:
    'List prices are dated observations: two list observations at different prices show the price on each date, not the day it changed.',
  studiedRangeIsNotAdvice:
    'A studied range describes the amounts and populations in published research; it is not a recommended dose and says nothing about a particular product.',
  filingsAreWhatTheyAre:
    'A regulatory record states what was filed, by whom and when; it is not an approval, a warning about any product in this answer, or a finding of harm.',
  absenceIsAboutTheRecord: 'A refusal or an absence is a fact about the Record, not about the product.',
  searchIsNotAListing: (cap: number) =>
    `Search answers with at most ${cap} products ranked by how closely their name, alias or latest declared ingredients match the question; it never pages and is not a listing of the Record.`,
  searchHasMore: (cap: number) => `More products match than the ${cap} shown; ask a narrower question (brand and product name) to find a specific product.`,
  retired: (row: ProductRow) =>
    `${displayName(row)} is retired (since ${row.retired_on}); the Record keeps its id and describes the last state it observed.`,
  registered: (row: ProductRow) =>
    `${displayName(row)} is REGISTERED: the Record knows the product exists but holds no comparable label capture of it.`,
  registeredNotCompared: (row: ProductRow) =>
    `${displayName(row)} (${row.product_id}) is REGISTERED: the Record holds no comparable label capture of it, so it is refused by comparison rather than compared.`,
  manufacturerUnreadable: (since: string, lastCaptured: string | null) =>
    `The manufacturer source has been unreadable since ${since}; ` +
    (lastCaptured ? `declared facts come from the capture of ${lastCaptured} and may not show the current label.` : 'the Record holds no capture read from it.'),
  noLabelInLatestState: (classification: string, observedTo: string) =>
    `The latest state of this product (observed up to ${observedTo}) is ${classification === 'identity_only' ? 'identity-only: the label was not captured, so no ingredients are declared in it' : `${classification}`}.`,
  presenceOnly: 'The latest label state names its ingredients, but their amounts were not fully readable (presence only).',
  recordReach: (first: string) => `The Record's history of this product begins on ${first}; label states before that date are not recoverable from the Record.`,
  singleState: 'The Record holds one label state of this product, so there is no earlier state to compare it with.',
  withdrawnSignal: (signalId: string, on: string) =>
    `Signal ${signalId} was withdrawn on ${on}; it keeps its address and release date but is not a confirmed change.`,
  noPriceObservations: 'The Record holds no price observation for this product, so no price per serving can be calculated.',
  servingsUnknown: 'Servings per container are not declared in the Record for an observation, so its price per serving is not calculated.',
  servingsDerived:
    "Where a label declares no servings per container, the service derives them as its net contents ÷ its serving size, only when both count the same dose form (capsules, tablets …) and divide into whole servings; that figure is the service's calculation, not the label's.",
  unknownIngredients: (ids: string[]) => `These ingredient ids are not in the Record: ${ids.join(', ')}.`,
  noResearch: (name: string) => `The Record holds no research context for ${name}.`,
  entryRetired: (e: { title: string; authority: string | null; date: string | null; retired_on: string; note: string }) =>
    `The Record retired "${e.title}"${e.authority || e.date ? ` (${[e.authority, e.date].filter(Boolean).join(', ')})` : ''} on ${e.retired_on} and no longer serves it as current: ${e.note}`,
  noRegulatory: (name: string) => `The Record holds no regulatory record or documented caution for ${name}.`,
  panelFigures: (names: string[]) =>
    `The label's nutrition panel figures are not ingredients and are not looked up (nor counted against the daily ingredient budget): ${names.join(', ')}.`,
  unmappedDeclared: (names: string[]) =>
    `Declared ingredients the Record has not mapped to an ingredient id are not covered here: ${names.join(', ')}.`,
} as const;

/** Distinct sentences in the order first said. */
export function distinct(sentences: Iterable<string | null | undefined | false>): string[] {
  const seen = new Set<string>();
  for (const s of sentences) if (s) seen.add(s);
  return [...seen];
}
