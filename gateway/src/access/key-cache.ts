import type { KeyRecord } from './key-record';

export interface KeyCacheOptions {
  /** Longest an entry is trusted while invalidations are flowing (a backstop, not the mechanism). */
  maxAgeMs?: number;
  /** How long an unknown key id is remembered as unknown. */
  negativeTtlMs?: number;
  /** While the invalidation channel is down, entries older than this are re-read. */
  degradedMaxAgeMs?: number;
  maxEntries?: number;
}

interface Entry {
  record: KeyRecord | null;
  loadedAt: number;
}

/**
 * Key records cached in-process so that admitting a request costs no
 * Postgres query. Correctness comes from explicit invalidation: the operator
 * CLI publishes every change on Redis and every replica evicts (see
 * invalidation.ts). Two backstops bound staleness if a message is lost: an
 * entry's maximum age, and a one-second age limit while the channel is down.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Loads under way, each with the epoch it started in. */
  private readonly inFlight = new Map<string, { epoch: number; loading: Promise<KeyRecord | null> }>();
  /** Bumped by every invalidation: a load that started before it is neither stored nor joined by a later lookup. */
  private epoch = 0;
  private channelHealthy = false;
  private readonly maxAgeMs: number;
  private readonly negativeTtlMs: number;
  private readonly degradedMaxAgeMs: number;
  private readonly maxEntries: number;
  hits = 0;
  misses = 0;

  constructor(
    private readonly load: (keyId: string) => Promise<KeyRecord | null>,
    opts: KeyCacheOptions = {},
  ) {
    this.maxAgeMs = opts.maxAgeMs ?? 60_000;
    this.negativeTtlMs = opts.negativeTtlMs ?? 5_000;
    this.degradedMaxAgeMs = opts.degradedMaxAgeMs ?? 1_000;
    this.maxEntries = opts.maxEntries ?? 100_000;
  }

  async lookup(keyId: string, now = Date.now()): Promise<KeyRecord | null> {
    const entry = this.entries.get(keyId);
    if (entry && this.fresh(entry, now)) {
      this.hits++;
      return entry.record;
    }
    this.misses++;
    // Concurrent lookups share one load, but only one that started after the last invalidation: a row read
    // before a revocation must not admit a request that arrived after it.
    const pending = this.inFlight.get(keyId);
    if (pending && pending.epoch === this.epoch) return pending.loading;
    const epoch = this.epoch;
    const loading: Promise<KeyRecord | null> = this.load(keyId).then(
      (record) => {
        this.landed(keyId, loading);
        if (this.epoch === epoch) this.store(keyId, { record, loadedAt: Date.now() });
        return record;
      },
      (err: unknown) => {
        this.landed(keyId, loading);
        throw err;
      },
    );
    this.inFlight.set(keyId, { epoch, loading });
    return loading;
  }

  /** A finished load leaves the in-flight map, unless a newer load of the same key has taken its place. */
  private landed(keyId: string, loading: Promise<KeyRecord | null>): void {
    if (this.inFlight.get(keyId)?.loading === loading) this.inFlight.delete(keyId);
  }

  /** A key id, or `org:<orgId>` for every key of an organisation. */
  invalidate(message: string): void {
    this.epoch++;
    if (message.startsWith('org:')) {
      const orgId = message.slice(4);
      for (const [keyId, entry] of this.entries) if (entry.record?.orgId === orgId) this.entries.delete(keyId);
    } else {
      this.entries.delete(message);
    }
  }

  flush(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** While the channel is down invalidations can be missed, so entries are trusted for one second only. */
  setChannelHealthy(healthy: boolean): void {
    this.channelHealthy = healthy;
  }

  get size(): number {
    return this.entries.size;
  }

  private fresh(entry: Entry, now: number): boolean {
    const age = now - entry.loadedAt;
    if (!this.channelHealthy) return age < this.degradedMaxAgeMs;
    return age < (entry.record ? this.maxAgeMs : this.negativeTtlMs);
  }

  private store(keyId: string, entry: Entry): void {
    // Unknown key ids are attacker-chosen: never let them grow the map without bound.
    if (this.entries.size >= this.maxEntries) {
      for (const [id, e] of this.entries) if (!e.record) this.entries.delete(id);
      if (this.entries.size >= this.maxEntries) this.entries.clear();
    }
    this.entries.set(keyId, entry);
  }
}
