/**
 * Net contents as a label declares them ("60 Caplet(s)", "520 g"), and the
 * one rule by which the service derives servings per container from them
 * when the label declares none (decision 2410).
 *
 * DSLD leaves `servingsPerContainer` null on many real labels (13 of the 59
 * real labels the tests read), almost all of them capsules and
 * tablets whose net contents and serving size count the same thing: 60
 * caplets at 1 caplet a serving are 60 servings. Masses and volumes are not
 * divided: on real labels that declare both, net weight ÷ scoop is 30.7, 29.3
 * or 31.5 where the label says 30, and 48 where it says 24 (a serving of two
 * 8.5 g scoops), so such a quotient is not what the label means.
 */
export interface NetContent {
  quantity: number;
  unit: string;
}

export interface DerivedServings {
  /** Whole servings per container. */
  value: number;
  /** The net contents entry divided. */
  net_contents: NetContent;
  serving_size: number;
  serving_unit: string;
}

/**
 * Dose forms a label counts, by the noun that ends the unit: "Vegetable
 * Capsule(s)" and "Vegetarian Capsule(s)" both count capsules; "Pack(s)"
 * and "Yellow Caplet(s)" do not count the same thing.
 */
const countNouns = new Set(['capsule', 'caplet', 'tablet', 'softgel', 'gelcap', 'gummy', 'chew', 'lozenge', 'packet', 'pack', 'stick', 'sachet', 'vial', 'shot', 'bar', 'wafer']);
const nounSynonyms: Record<string, string> = { cap: 'capsule', vcap: 'capsule', sofgel: 'softgel', pak: 'pack', gummie: 'gummy' };

/** The counted noun a unit names ("Veggie Cap(s)" → capsule), or null for a mass, a volume or anything else. */
export function countedNoun(unit: string | null | undefined): string | null {
  const last = (unit ?? '')
    .toLowerCase()
    .replace(/\((s|es|ies)\)/g, '')
    .replace(/[^a-z\s-]/g, ' ')
    .trim()
    .split(/[\s-]+/)
    .at(-1);
  if (!last) return null;
  const singular = last.endsWith('ies') ? `${last.slice(0, -3)}y` : last.endsWith('s') && last.length > 3 ? last.slice(0, -1) : last;
  const noun = nounSynonyms[singular] ?? singular;
  return countNouns.has(noun) ? noun : null;
}

const WHOLE = 1e-9;

/**
 * Servings per container as net contents ÷ serving size, only when both count
 * the same dose form, the serving is one size (not a range) and the quotient
 * is a whole number of at least one. Null otherwise, and null when two net
 * contents entries of that dose form give different answers.
 */
export function deriveServings(serving: { size: number | null; unit: string | null } | null, netContents: readonly NetContent[] | null | undefined): DerivedServings | null {
  const size = serving?.size ?? null;
  const noun = countedNoun(serving?.unit);
  if (size === null || !(size > 0) || noun === null || !serving?.unit) return null;
  let found: DerivedServings | null = null;
  for (const n of netContents ?? []) {
    if (countedNoun(n.unit) !== noun || !(n.quantity > 0)) continue;
    const q = n.quantity / size;
    const whole = Math.round(q);
    if (Math.abs(q - whole) > WHOLE || whole < 1) return null;
    if (found && found.value !== whole) return null;
    found ??= { value: whole, net_contents: { quantity: n.quantity, unit: n.unit }, serving_size: size, serving_unit: serving.unit };
  }
  return found;
}

const number = (n: number) => String(Number(n));

/** "60 Caplet(s)". */
export function netContentText(n: NetContent): string {
  return `${number(n.quantity)} ${n.unit}`;
}

/** "60 Caplet(s); 1.2 lb", or "not declared". */
export function netContentsText(list: readonly NetContent[] | null | undefined): string {
  return list && list.length > 0 ? list.map(netContentText).join('; ') : 'not declared';
}

/** How a derived figure was reached, in the words an answer's operand and note use. */
export function derivationText(d: DerivedServings): string {
  return `net contents ${netContentText(d.net_contents)} ÷ serving size ${number(d.serving_size)} ${d.serving_unit}`;
}

/** The note of a price-per-serving calculation that divides by a derived figure: one wording in every answer. */
export function derivedServingsNote(d: DerivedServings): string {
  return `The label declares no servings per container; ${d.value} is the service's ${derivationText(d)}.`;
}

/** What a label state declares that servings per container can come from. */
export interface ServingDeclaration {
  servings_per_container: number | null;
  serving_size: number | null;
  serving_unit: string | null;
  net_contents: readonly NetContent[] | null;
}

/**
 * The servings per container a label state gives a price: the ones it
 * declares, else the ones derived from its net contents (`derived` set), else
 * null. The one order every answer that divides a price by servings keeps.
 */
export function servingsOfState(state: ServingDeclaration | null): { value: number; derived: DerivedServings | null } | null {
  if (!state) return null;
  if (state.servings_per_container !== null) return { value: Number(state.servings_per_container), derived: null };
  const derived = deriveServings({ size: state.serving_size, unit: state.serving_unit }, state.net_contents);
  return derived ? { value: derived.value, derived } : null;
}
