import { withTransaction, type Logger, type Pool, type RedisClient } from '@evidence-record/platform';
import { coolDownKey, publishKeyChange, type ScoringPolicy } from '@evidence-record/access';
import type { KeyCache } from '../access/key-cache';
import type { ExtractionScore } from './score';

/** How long the Redis suspension flag bridges the Postgres write and the cache invalidation. */
const SUSPENSION_FLAG_MS = 24 * 60 * 60 * 1000;
/** The longest wait between two attempts to save a suspension Postgres refused. */
const RETRY_CAP_MS = 60_000;

export interface ScoringContext {
  keyId: string;
  orgId: string;
  requestId: string;
  capability: string;
  observation: unknown;
}

/**
 * Acts on a score that crossed a threshold. Both actions first set the
 * key's cool-down flag in Redis, which the rate-window script of every
 * replica reads before the next request, so the refusal holds everywhere at
 * once. Suspension is then made permanent in Postgres (`api_keys`
 * suspended_at/suspended_reason and a `key_events` row with the evidence)
 * and published, so replicas answer `key_suspended` from their key cache
 * until an operator lifts it (`admin key unsuspend`).
 */
export class ExtractionEnforcer {
  /** Set by stop(): attempts still waiting to save a suspension give up (the Redis flag still refuses the key). */
  private stopped = false;

  constructor(
    private readonly deps: { redis: RedisClient; prefix: string; pool: Pool; cache: KeyCache; log: Logger; policy: ScoringPolicy },
  ) {}

  async coolDown(ctx: ScoringContext, settlement: ExtractionScore): Promise<number> {
    const ms = this.deps.policy.cool_down_ms;
    await this.deps.redis.set(coolDownKey(this.deps.prefix, ctx.keyId), 'cool', 'PX', ms);
    this.deps.log.warn({ key_id: ctx.keyId, score: settlement.score, reasons: settlement.reasons }, 'extraction pattern: key cooling down');
    void this.recordEvent(ctx.keyId, 'extraction_refused', this.detail(ctx, settlement, { cool_down_seconds: Math.ceil(ms / 1000) }));
    return Math.max(1, Math.ceil(ms / 1000));
  }

  async suspend(ctx: ScoringContext, settlement: ExtractionScore): Promise<void> {
    await this.deps.redis.set(coolDownKey(this.deps.prefix, ctx.keyId), 'suspended', 'PX', SUSPENSION_FLAG_MS);
    this.deps.log.warn({ key_id: ctx.keyId, score: settlement.score, reasons: settlement.reasons }, 'extraction pattern: key suspended');
    const reason = `extraction pattern: ${settlement.reasons.join(', ') || 'score'} (score ${settlement.score.toFixed(1)})`;
    // The refusal waits for the first attempt to save it, so that an operator who looks once the client has its
    // key_suspended sees the key suspended and why. Suspensions are rare; if Postgres is slow or down, the
    // refusal goes out after that one attempt, within the pool's deadlines (3 s to connect, 4 s a statement), the Redis
    // flag holding meanwhile, and the attempts go on behind it until one saves it.
    const detail = this.detail(ctx, settlement, {});
    if (!(await this.saveSuspension(ctx, reason, detail))) void this.persistSuspension(ctx, reason, detail);
  }

  private detail(ctx: ScoringContext, s: ExtractionScore, extra: Record<string, unknown>): Record<string, unknown> {
    return {
      request_id: ctx.requestId,
      capability: ctx.capability,
      observation: ctx.observation,
      score: Math.round(s.score * 10) / 10,
      points: s.points,
      reasons: s.reasons,
      evidence: s.evidence,
      thresholds: { refuse_at: this.deps.policy.refuse_at, suspend_at: this.deps.policy.suspend_at },
      ...extra,
    };
  }

  /** Ends the attempts behind refusals, when the gateway closes its connections. */
  stop(): void {
    this.stopped = true;
  }

  /** One attempt to make the suspension permanent and publish it; false if it could not be saved. */
  private async saveSuspension(ctx: ScoringContext, reason: string, detail: Record<string, unknown>, attempt = 1): Promise<boolean> {
    try {
      await withTransaction(this.deps.pool, async (client) => {
        await client.query(
          'UPDATE api_keys SET suspended_at = now(), suspended_reason = $2 WHERE key_id = $1 AND suspended_at IS NULL',
          [ctx.keyId, reason],
        );
        await client.query("INSERT INTO key_events (key_id, kind, detail) VALUES ($1, 'suspended', $2)", [ctx.keyId, { ...detail, reason, by: 'extraction_scoring' }]);
      });
    } catch (err) {
      this.deps.log.error({ err: String(err), key_id: ctx.keyId, attempt }, 'could not save key suspension');
      return false;
    }
    this.deps.cache.invalidate(ctx.keyId);
    await publishKeyChange(this.deps.redis, this.deps.prefix, ctx.keyId).catch((err: unknown) =>
      this.deps.log.warn({ err: String(err), key_id: ctx.keyId }, 'suspension saved but not published; the Redis flag still refuses the key'),
    );
    return true;
  }

  /**
   * The attempts behind a refusal that has already gone out, spaced further apart each time (200 ms doubling, at
   * most a minute), for as long as the Redis flag says the key is suspended: a Postgres outage longer than a few
   * seconds must not leave the suspension unrecorded once the flag expires. An operator who lifts the suspension
   * meanwhile clears the flag, and then nothing is saved (saving it would suspend the key again).
   */
  private async persistSuspension(ctx: ScoringContext, reason: string, detail: Record<string, unknown>): Promise<void> {
    // Attempt 1 was the refusal's own.
    for (let attempt = 2; ; attempt++) {
      await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** (attempt - 2), RETRY_CAP_MS)).unref());
      if (this.stopped) return;
      let flag: string | null;
      try {
        flag = await this.deps.redis.get(coolDownKey(this.deps.prefix, ctx.keyId));
      } catch {
        continue; // Redis unreachable as well: the flag cannot be read, so the next attempt decides.
      }
      if (flag !== 'suspended') {
        this.deps.log.warn({ key_id: ctx.keyId, attempt }, 'suspension not saved: its flag was lifted or expired first');
        return;
      }
      if (await this.saveSuspension(ctx, reason, detail, attempt)) return;
    }
  }

  private async recordEvent(keyId: string, kind: string, detail: Record<string, unknown>): Promise<void> {
    try {
      await this.deps.pool.query('INSERT INTO key_events (key_id, kind, detail) VALUES ($1, $2, $3)', [keyId, kind, detail]);
    } catch (err) {
      this.deps.log.error({ err: String(err), key_id: keyId, kind }, 'could not record key event');
    }
  }
}
