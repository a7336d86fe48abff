import type { Pool, PoolClient } from '@evidence-record/platform';

/**
 * Leases on due checks (decision 1002). A replica takes a batch of due,
 * unleased (or lease-expired) sources with FOR UPDATE SKIP LOCKED, so two
 * replicas never take the same source; each lease carries a fresh token,
 * and a check's result is written only if the source still holds that token
 * (fencing): a replica that died, or stalled past its lease, cannot write a
 * second check after another replica retook the source. At most one source
 * per host is taken per batch, and none whose host is cooling down.
 *
 * The lease lifecycle, all of it here: taken (leaseDue); fenced when its check
 * is recorded (fenceLeases) and ended with that record (LEASE_ENDED, written by
 * finishChecks); given back without a check (runLeased, and giveBack for a
 * replica shutting down); or dropped when an operator stops the source being
 * read (LEASE_ENDED, written by setSourceState and a label version that is no
 * longer the newest).
 */
export interface LeasedSource {
  source_id: number;
  product_id: string;
  /** A kind the monitor reads (kinds/index.ts). */
  kind: string;
  url: string;
  host: string;
  retailer: string | null;
  /** The offer an offer_page source reads on a page of several (decision 1008), or null. */
  variant: string | null;
  cadence_ms: number;
  etag: string | null;
  last_modified: string | null;
  last_evidence_sha256: string | null;
  consecutive_unreadable: number;
  last_outcome: string | null;
  lease_token: string;
  /** The previous lease had expired: its replica died or stalled mid-check. */
  retaken: boolean;
}

export interface LeaseRequest {
  owner: string;
  limit: number;
  leaseMs: number;
  /** Only this product's sources, due or not (`monitor run-once --product`). */
  productId?: string | null;
  /** Sources this run already checked (run-once takes each source at most once). */
  exclude?: number[];
}

export async function leaseDue(pool: Pool, req: LeaseRequest): Promise<LeasedSource[]> {
  const { rows } = await pool.query<LeasedSource>({
    name: 'monitor-lease-due',
    text: `
      WITH pick AS (
        SELECT DISTINCT ON (s.host) s.source_id, s.next_check_due
          FROM sources s
         WHERE s.state = 'active' AND s.next_check_due IS NOT NULL
           AND ($3::text IS NULL AND s.next_check_due <= now() OR s.product_id = $3)
           AND (s.lease_expires_at IS NULL OR s.lease_expires_at < now())
           AND NOT (s.source_id = ANY ($5::bigint[]))
           AND NOT EXISTS (SELECT 1 FROM host_slots h WHERE h.host = s.host AND (h.next_allowed_at > now() OR h.busy_until > now()))
         ORDER BY s.host, s.next_check_due
      ),
      due AS (
        SELECT s.source_id, s.lease_owner IS NOT NULL AS retaken
          FROM sources s JOIN (SELECT source_id FROM pick ORDER BY next_check_due LIMIT $2) p USING (source_id)
         WHERE s.state = 'active' AND (s.lease_expires_at IS NULL OR s.lease_expires_at < now())
           FOR UPDATE OF s SKIP LOCKED
      )
      UPDATE sources s
         SET lease_owner = $1, lease_token = gen_random_uuid(), lease_expires_at = now() + make_interval(secs => $4::double precision / 1000)
        FROM due
       WHERE s.source_id = due.source_id
      RETURNING s.source_id, s.product_id, s.kind, s.url, s.host, s.retailer, s.variant,
                (extract(epoch FROM s.cadence) * 1000)::bigint AS cadence_ms,
                s.etag, s.last_modified, s.last_evidence_sha256, s.consecutive_unreadable, s.last_outcome,
                s.lease_token, due.retaken`,
    values: [req.owner, req.limit, req.productId ?? null, req.leaseMs, req.exclude ?? []],
  });
  return rows;
}

/** The lease columns of a source whose lease ends (an UPDATE's SET list): its check was recorded, or it is no longer read. */
export const LEASE_ENDED = 'lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL';

/** Another replica retook the source after this lease expired: its check is the one recorded. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/**
 * One leased check, run to its end: `check` answers what it recorded (its lease ended with the record), or null when
 * it recorded nothing (its host was busy). The lease is given back then, and when the check failed, so the source
 * stays due for the next lease; it is not given back when it was lost (another replica holds it now).
 */
export async function runLeased<T>(pool: Pool, src: LeasedSource, check: () => Promise<T | null>): Promise<T | null> {
  let giveBackLease = true;
  try {
    const recorded = await check();
    giveBackLease = recorded === null;
    return recorded;
  } catch (err) {
    giveBackLease = !(err instanceof LeaseLost);
    throw err;
  } finally {
    // Best effort: a lease not given back expires (MONITOR_LEASE_MS) and the source is taken again.
    if (giveBackLease) await giveBack(pool, src).catch(() => undefined);
  }
}

/** A source's check as the recorder's transaction holds it, fenced by its lease token. */
export interface HeldSource {
  consecutive_unreadable: number;
  /** The database's clock as the check is recorded: the check's date, as leases are dated, whatever this replica's clock says. */
  recorded_at: Date;
}

/** Locks the sources whose leases still hold their checks' tokens; a source missing from the answer was retaken. */
export async function fenceLeases(client: PoolClient, leases: readonly LeasedSource[]): Promise<Map<number, HeldSource>> {
  const held = await client.query<HeldSource & { source_id: number }>({
    name: 'monitor-fence-leases',
    text: `SELECT s.source_id, s.consecutive_unreadable, now() AS recorded_at
             FROM sources s JOIN unnest($1::bigint[], $2::uuid[]) AS l(source_id, lease_token)
               ON s.source_id = l.source_id AND s.lease_token = l.lease_token
              FOR UPDATE OF s`,
    values: [leases.map((l) => l.source_id), leases.map((l) => l.lease_token)],
  });
  return new Map(held.rows.map((r) => [Number(r.source_id), r]));
}

/** Gives a lease back without a check (the host was busy, the check failed, or the replica is shutting down): the source stays due. */
export async function giveBack(pool: Pool, src: Pick<LeasedSource, 'source_id' | 'lease_token'>): Promise<void> {
  await pool.query({
    name: 'monitor-release-lease',
    text: `UPDATE sources SET ${LEASE_ENDED} WHERE source_id = $1 AND lease_token = $2`,
    values: [src.source_id, src.lease_token],
  });
}

/** Sources due now and not leased: the backlog a dashboard watches. */
export async function dueBacklog(pool: Pool): Promise<{ due: number; expired_leases: number }> {
  const { rows } = await pool.query<{ due: number; expired_leases: number }>({
    name: 'monitor-due-backlog',
    text: `SELECT (count(*) FILTER (WHERE lease_expires_at IS NULL OR lease_expires_at < now()))::int AS due,
                  (count(*) FILTER (WHERE lease_owner IS NOT NULL AND lease_expires_at < now()))::int AS expired_leases
             FROM sources WHERE state = 'active' AND next_check_due IS NOT NULL AND next_check_due <= now()`,
  });
  return rows[0] ?? { due: 0, expired_leases: 0 };
}

/**
 * Politeness per host across replicas (decision 1003): the host slot is taken
 * (one request in flight) only once its minimum interval has passed; a busy
 * slot whose holder died frees itself when busy_until passes.
 */
export async function claimHost(pool: Pool, host: string, owner: string, busyMs: number): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: 'monitor-claim-host',
    text: `INSERT INTO host_slots AS h (host, busy_until, busy_owner, next_allowed_at)
           VALUES ($1, now() + make_interval(secs => $3::double precision / 1000), $2, now())
           ON CONFLICT (host) DO UPDATE SET busy_until = excluded.busy_until, busy_owner = excluded.busy_owner
            WHERE h.next_allowed_at <= now() AND (h.busy_until IS NULL OR h.busy_until < now())`,
    values: [host, owner, busyMs],
  });
  return (rowCount ?? 0) > 0;
}

/** Frees the host slot; the next request to it waits `waitMs` (the interval, or a longer Retry-After). */
export async function releaseHost(pool: Pool, host: string, owner: string, waitMs: number): Promise<void> {
  await pool.query({
    name: 'monitor-release-host',
    text: `UPDATE host_slots SET busy_until = NULL, busy_owner = NULL,
                  next_allowed_at = greatest(next_allowed_at, now() + make_interval(secs => $3::double precision / 1000))
            WHERE host = $1 AND busy_owner = $2`,
    values: [host, owner, waitMs],
  });
}
