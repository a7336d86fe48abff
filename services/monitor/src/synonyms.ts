import type { Pool } from '@evidence-record/platform';
import { normalizeName } from '@evidence-record/record';
import type { DeclaredLine } from './dsld';

/** What identity resolution is given of a declared line: its name as printed and the label's own identifiers for it. */
export type IdentityQuery = Pick<DeclaredLine, 'declared_name' | 'unii' | 'ingredient_group' | 'forms'>;

/**
 * Declared lines mapped to the Record's ingredient ids through its synonyms
 * (and ingredient names). A name that maps to no id, or to more than one, is
 * kept as declared with no id: never dropped, never guessed. The whole line
 * is passed so a resolver can read the row's UNII, ingredient group and
 * forms; this one reads the name.
 */
export class IngredientNames {
  private map: Map<string, string | null> | null = null;
  private loadedAt = 0;
  constructor(
    private readonly pool: Pool,
    private readonly ttlMs = 300_000,
  ) {}

  async idOf(line: IdentityQuery): Promise<string | null> {
    if (!this.map || Date.now() - this.loadedAt > this.ttlMs) await this.load();
    return this.map!.get(normalizeName(line.declared_name)) ?? null;
  }

  private async load(): Promise<void> {
    const { rows } = await this.pool.query<{ norm: string; ingredient_id: string }>(
      `SELECT synonym_norm AS norm, ingredient_id FROM ingredient_synonyms
       UNION SELECT lower(name), ingredient_id FROM ingredients`,
    );
    const map = new Map<string, string | null>();
    for (const r of rows) {
      const norm = normalizeName(r.norm);
      const seen = map.get(norm);
      map.set(norm, seen === undefined || seen === r.ingredient_id ? r.ingredient_id : null);
    }
    this.map = map;
    this.loadedAt = Date.now();
  }
}
