import { pairedChanges, type DeclarationChange, type DeclaredLine } from './declarations';
import { netContentsText, type NetContent } from './net-contents';

/**
 * How a change between two states is worded, once: the summary a candidate
 * opens with (curation's openCandidateIn derives it, for the monitor and for
 * anyone who opens a candidate without one) and the "Before → after" lines of
 * the alert email are the same phrases, so a Signal, its email and its
 * candidate never describe one change two ways (decision 1600).
 */

/** One side of a label change: what the label state declares. */
export interface LabelSide {
  lines: DeclaredLine[];
  blends: Array<{ name: string; total_amount: number | null; total_unit: string | null }>;
  serving: { size: number | null; unit: string | null; servings_per_container: number | null; description: string | null } | null;
  off_market: boolean;
  /** What the label declares it holds; empty or absent when the state was read before the Record read net contents. */
  net_contents?: NetContent[];
}

/** One list-price observation of a price change. */
export interface ListPriceSide {
  price_cents: number;
  retailer: string;
  servings_per_container?: number | null;
}

export interface ChangeSides {
  dimension: string;
  before: LabelSide | null;
  after: LabelSide | null;
  prices?: { before: ListPriceSide | null; after: ListPriceSide | null } | null;
}

/** The longest summary a candidate or Signal carries (curation's public-text rule). */
export const SUMMARY_MAX = 400;

const number = (n: number | string) => String(Number(n));

/** An amount as the label states it: "200 mg", a declared zero as "0 mg", never zero for an amount not given. */
export function amountText(d: Pick<DeclaredLine, 'amount' | 'unit'> & { operator?: string | null }): string {
  if (d.amount === null || d.amount === undefined) return 'no amount declared';
  const op = d.operator && d.operator !== '=' ? `${d.operator} ` : '';
  return `${op}${number(d.amount)} ${d.unit ?? ''}`.trim();
}

/** A declaration on one side of a pair: its amount, and the blend it is declared in. */
function declared(d: DeclaredLine): string {
  return d.blend ? `${amountText(d)} (in ${d.blend})` : amountText(d);
}

/** The same inside parentheses: "no amount declared, in Pump Blend". */
function declaredInline(d: DeclaredLine): string {
  return d.blend ? `${amountText(d)}, in ${d.blend}` : amountText(d);
}

/** One changed declaration. An ingredient a label stops naming is no longer declared: undisclosed, never "removed". */
export function declarationPhrase(c: DeclarationChange): string {
  if (c.before && c.after) {
    const renamed = c.before.declared_name !== c.after.declared_name ? ` (was declared as ${c.before.declared_name})` : '';
    const was = declared(c.before);
    const now = declared(c.after);
    return was === now ? `${c.after.declared_name}${renamed}: ${now}` : `${c.after.declared_name}${renamed}: ${was} → ${now}`;
  }
  if (c.after) return `${c.after.declared_name} added (${declaredInline(c.after)})`;
  return `${c.before!.declared_name} no longer declared (was ${declaredInline(c.before!)})`;
}

const blendTotal = (b: LabelSide['blends'][number]) => amountText({ amount: b.total_amount, unit: b.total_unit });

function blendPhrases(before: LabelSide, after: LabelSide): string[] {
  const out: string[] = [];
  const was = new Map(before.blends.map((b) => [b.name, b]));
  for (const b of after.blends) {
    const old = was.get(b.name);
    was.delete(b.name);
    if (!old) out.push(`${b.name} added (total ${blendTotal(b)})`);
    else if (blendTotal(old) !== blendTotal(b)) out.push(`${b.name} total: ${blendTotal(old)} → ${blendTotal(b)}`);
  }
  for (const b of was.values()) out.push(`${b.name} no longer declared (total was ${blendTotal(b)})`);
  return out;
}

function servingText(s: LabelSide['serving']): string {
  if (!s || (s.size === null && !s.description)) return 'not declared';
  const size = s.size === null ? null : `${number(s.size)} ${s.unit ?? ''}`.trim();
  return size && s.description && s.description !== size ? `${s.description} (${size})` : (s.description ?? size!);
}

function servingPhrases(before: LabelSide, after: LabelSide): string[] {
  const out: string[] = [];
  if (servingText(before.serving) !== servingText(after.serving)) out.push(`Serving: ${servingText(before.serving)} → ${servingText(after.serving)}`);
  const per = (s: LabelSide['serving']) => (s?.servings_per_container === null || s?.servings_per_container === undefined ? 'not declared' : number(s.servings_per_container));
  if (per(before.serving) !== per(after.serving)) out.push(`Servings per container: ${per(before.serving)} → ${per(after.serving)}`);
  // A side with none was read before the Record read net contents (decision 2410): not a change of the label.
  const net = [before.net_contents ?? [], after.net_contents ?? []];
  if (net.every((n) => n.length > 0) && netContentsText(net[0]) !== netContentsText(net[1])) out.push(`Net contents: ${netContentsText(net[0])} → ${netContentsText(net[1])}`);
  return out;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function pricePhrase(prices: NonNullable<ChangeSides['prices']>): string {
  const { before, after } = prices;
  const retailer = after?.retailer ?? before?.retailer;
  const side = (p: ListPriceSide | null, other: ListPriceSide | null) => {
    if (!p) return 'not observed';
    const servings = other && p.servings_per_container !== other.servings_per_container && p.servings_per_container ? ` (${number(p.servings_per_container)} servings)` : '';
    return `${dollars(p.price_cents)}${servings}`;
  };
  return `List price${retailer ? ` at ${retailer}` : ''}: ${side(before, after)} → ${side(after, before)}`;
}

/**
 * What changed, one phrase per difference, for the change's dimension:
 * "Caffeine Anhydrous: 200 mg → 225 mg", "Beta-Alanine added (3.2 g)",
 * "Taurine no longer declared (was 1 g)", "Serving: 1 scoop (10 g) → 1 scoop (12 g)",
 * "List price at Shelfwise: $49.99 → $54.99". Empty when the sides do not differ in it.
 */
export function changeLines(c: ChangeSides): string[] {
  const lines: string[] = [];
  if (c.prices && (c.dimension === 'price' || c.prices.before || c.prices.after)) lines.push(pricePhrase(c.prices));
  const { before, after } = c;
  if (!before || !after) return lines;
  if (c.dimension === 'serving') return [...lines, ...servingPhrases(before, after)];
  if (c.dimension === 'identity') {
    if (before.off_market !== after.off_market) lines.push(after.off_market ? 'Now marked off the market by its source' : 'No longer marked off the market by its source');
    return lines;
  }
  if (c.dimension === 'price') return lines;
  return [...lines, ...pairedChanges(before.lines, after.lines).map(declarationPhrase), ...blendPhrases(before, after)];
}

/**
 * The one-line summary of a change: its phrases joined by "; ", as many as fit
 * in SUMMARY_MAX with a count of the rest; `fallback` when no phrase applies.
 */
export function changeSummary(phrases: string[], fallback: string): string {
  // One plain line whatever a label prints: a control character in a declared name becomes a space.
  const lines = phrases.map((l) => l.replace(/[\p{Cc}\s]+/gu, ' ').trim()).filter((l) => l.length > 0);
  if (lines.length === 0) return fallback;
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const next = out ? `${out}; ${lines[i]}` : lines[i]!;
    const rest = lines.length - i - 1;
    const tail = rest > 0 ? `; and ${rest} more change${rest === 1 ? '' : 's'}` : '';
    if (next.length + tail.length > SUMMARY_MAX) {
      const left = lines.length - i;
      const more = `${out ? '; and ' : ''}${left} more change${left === 1 ? '' : 's'}`;
      return out ? `${out}${more}` : `${lines[i]!.slice(0, SUMMARY_MAX - 1)}…`;
    }
    out = next;
  }
  return out;
}
