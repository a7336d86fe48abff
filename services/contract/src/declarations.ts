/**
 * Declared ingredient lines of two label states compared, shared by
 * explain_signal (both sides of a Signal) and the alert email (its
 * "before → after" lines), so the two never disagree about what changed.
 */
export interface DeclaredLine {
  ingredient_id: string | null;
  declared_name: string;
  amount: number | null;
  unit: string | null;
  blend: string | null;
  /** How the amount is stated ("=", "<", ">"); absent where the reader does not select it. */
  operator?: string | null;
}

/** The identity of a declaration across states: the canonical ingredient, else the name as printed (case and spacing ignored). */
export function ingredientKey(d: DeclaredLine): string {
  return d.ingredient_id ?? `name:${d.declared_name.trim().toLowerCase().replace(/\s+/g, ' ')}`;
}

function sameDeclaration(a: DeclaredLine, b: DeclaredLine): boolean {
  return (
    a.amount === b.amount &&
    (a.unit ?? null) === (b.unit ?? null) &&
    (a.blend ?? null) === (b.blend ?? null) &&
    a.declared_name === b.declared_name &&
    (a.operator ?? '=') === (b.operator ?? '=')
  );
}

/**
 * The declared ingredients that differ between two label states: each side
 * keeps the declarations the other side does not make identically (added,
 * removed, or declared with another amount, unit or blend). An ingredient
 * missing from one side is undisclosed there, which is itself a difference.
 */
export function differingIngredients<T extends DeclaredLine>(before: T[], after: T[]): { before: T[]; after: T[] } {
  const index = (rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) m.set(ingredientKey(r), [...(m.get(ingredientKey(r)) ?? []), r]);
    return m;
  };
  const a = index(before);
  const b = index(after);
  const unmatched = (rows: T[], other: Map<string, T[]>) => rows.filter((r) => !(other.get(ingredientKey(r)) ?? []).some((o) => sameDeclaration(r, o)));
  return { before: unmatched(before, b), after: unmatched(after, a) };
}

/** One changed declaration, paired across the two states; null where that side does not declare it. */
export interface DeclarationChange {
  name: string;
  before: DeclaredLine | null;
  after: DeclaredLine | null;
}

/** The differing declarations paired by ingredient, in the order of the later label (then what it no longer declares). */
export function pairedChanges(before: DeclaredLine[], after: DeclaredLine[]): DeclarationChange[] {
  const diff = differingIngredients(before, after);
  const removed = new Map<string, DeclaredLine>();
  for (const d of diff.before) if (!removed.has(ingredientKey(d))) removed.set(ingredientKey(d), d);
  const out: DeclarationChange[] = [];
  for (const d of diff.after) {
    const key = ingredientKey(d);
    const was = removed.get(key) ?? null;
    removed.delete(key);
    out.push({ name: d.declared_name, before: was, after: d });
  }
  for (const d of removed.values()) out.push({ name: d.declared_name, before: d, after: null });
  return out;
}
