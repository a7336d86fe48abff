import type { Pool, PoolClient } from '@evidence-record/platform';
import { identify, identityStamp, loadIdentityIndex, type DeclaredIdentifiers, type Identity, type IdentityIndex } from '@evidence-record/curation';

/**
 * Declared lines identified as the Record's canonical ingredients with the
 * identity rules (decision 1500: UNII, then DSLD group and form, then the
 * normalised name). A line matching no ingredient, or two, keeps its declared
 * name with no id: never dropped, never guessed. The rules' index is cached
 * and reloaded when identity changes (the newest `ingredient_identity_changes`
 * row moves; `sync` checks it inside each batch's transaction) or after `ttlMs`.
 */
/** What identity resolution is given of a declared line: its name as printed and the label's own identifiers for it. */
export type IdentityQuery = DeclaredIdentifiers;

export class IngredientNames {
  private index: IdentityIndex | null = null;
  private stamp = -1;
  private loadedAt = 0;
  constructor(
    private readonly pool: Pool,
    private readonly ttlMs = 300_000,
  ) {}

  /** Reloads the rules if identity changed since they were loaded (or they are older than the TTL). */
  async sync(db: Pool | PoolClient = this.pool): Promise<void> {
    const stamp = await identityStamp(db);
    if (this.index && stamp === this.stamp && Date.now() - this.loadedAt <= this.ttlMs) return;
    this.index = await loadIdentityIndex(db);
    this.stamp = stamp;
    this.loadedAt = Date.now();
  }

  async identify(line: DeclaredIdentifiers): Promise<Identity> {
    if (!this.index || Date.now() - this.loadedAt > this.ttlMs) await this.sync();
    return identify(line, this.index!);
  }

  async idOf(line: DeclaredIdentifiers | string): Promise<string | null> {
    return (await this.identify(typeof line === 'string' ? { declared_name: line } : line)).ingredient_id;
  }
}
