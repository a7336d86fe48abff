import type { CostKind } from '@evidence-record/contract';
import type { Observation } from '../scoring/observe';

/**
 * What this replica has seen Redis settle today, so that an answer which
 * cannot change any budget or score skips the settle round trip
 * (docs/decisions/0306-settling-repeats-without-redis.md).
 *
 * Sound because everything remembered only grows within a UTC day: an
 * organisation's budget set of a day gains entities and never loses one, and
 * a key's sets of distinct identifiers and date windows likewise, except
 * when an operator clears a key's extraction state, which is announced on
 * the key-change channel like every other key change and forgets what this
 * replica remembered of that key. While that channel is down nothing is
 * skipped, and after it reconnects everything is forgotten.
 *
 * A repeat is therefore answered exactly as the settle script would answer
 * it: delivered, nothing charged, no points. Anything else (a new entity or
 * identifier, a not-found id, a feed `since`, a changed plan limit) goes to
 * Redis as before.
 */
export class SettledToday {
  private day = '';
  /** `${orgId}|${kind}|${limit}` → entities in the organisation's budget set of the day. */
  private readonly charged = new Map<string, Set<string>>();
  /** `${orgId}|${keyId}` → identifier and window observations already in the key's daily sets. */
  private readonly observed = new Map<string, Set<string>>();
  private remembered = 0;
  private channelHealthy = true;

  constructor(private readonly maxRemembered = 200_000) {}

  /** True when settling this answer in Redis could change nothing. */
  isRepeat(a: { day: string; orgId: string; keyId: string; kind: CostKind; limit: number | null; entities: readonly string[]; observation: Observation | null }): boolean {
    if (!this.channelHealthy || a.day !== this.day) return false;
    if (a.observation) {
      const token = observationToken(a.observation);
      if (token === null || !this.observed.get(`${a.orgId}|${a.keyId}`)?.has(token)) return false;
    }
    if (a.limit === null || a.entities.length === 0) return true;
    const known = this.charged.get(`${a.orgId}|${a.kind}|${a.limit}`);
    if (!known) return false;
    for (const e of a.entities) if (!known.has(e)) return false;
    return true;
  }

  /** After Redis delivered an answer: its entities are in the day's budget set and its observation in the key's sets. */
  remember(a: { day: string; orgId: string; keyId: string; kind: CostKind; limit: number | null; entities: readonly string[]; observation: Observation | null }): void {
    if (a.day !== this.day) this.forgetAll(a.day);
    if (this.remembered >= this.maxRemembered) this.forgetAll(a.day);
    if (a.limit !== null && a.entities.length > 0) {
      const id = `${a.orgId}|${a.kind}|${a.limit}`;
      let known = this.charged.get(id);
      if (!known) this.charged.set(id, (known = new Set()));
      for (const e of a.entities) {
        if (!known.has(e)) this.remembered++;
        known.add(e);
      }
    }
    const token = a.observation ? observationToken(a.observation) : null;
    if (token !== null) {
      const id = `${a.orgId}|${a.keyId}`;
      let seen = this.observed.get(id);
      if (!seen) this.observed.set(id, (seen = new Set()));
      if (!seen.has(token)) this.remembered++;
      seen.add(token);
    }
  }

  /** A key id, or `org:<orgId>` for every key of an organisation (the key-change channel's messages). */
  invalidate(message: string): void {
    if (message.startsWith('org:')) {
      const prefix = `${message.slice(4)}|`;
      for (const map of [this.charged, this.observed]) for (const id of map.keys()) if (id.startsWith(prefix)) map.delete(id);
    } else {
      const suffix = `|${message}`;
      for (const id of this.observed.keys()) if (id.endsWith(suffix)) this.observed.delete(id);
    }
  }

  flush(): void {
    this.forgetAll(this.day);
  }

  setChannelHealthy(healthy: boolean): void {
    this.channelHealthy = healthy;
  }

  get size(): number {
    return this.remembered;
  }

  private forgetAll(day: string): void {
    this.day = day;
    this.charged.clear();
    this.observed.clear();
    this.remembered = 0;
  }
}

/**
 * Identifiers and date windows only ever join a daily set, so a repeat of
 * one is a no-op. A not-found id also updates the key's last miss (for the
 * patterned-ids rule) and a feed `since` may move the key's newest `since`:
 * both always go to Redis.
 */
function observationToken(o: Observation): string | null {
  return o.kind === 'identifier' || o.kind === 'window' ? `${o.kind}:${o.value}` : null;
}
