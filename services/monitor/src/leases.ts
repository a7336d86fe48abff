import type { Pool } from '@evidence-record/platform';

/**
 * Leases on due checks (decision 1002). A replica takes a batch of due,
 * unleased (or lease-expired) sources with FOR UPDATE SKIP LOCKED, so two
 * replicas never take the same source; each lease carries a fresh token,
 * and a check's result is written only if the source still holds that token
 * (fencing): a replica that died, or stalled past its lease, cannot write a
 * second check after another replica retook the source. At most one source
 * per host is taken per batch, and none whose host is cooling down.
 */
export interface LeasedSource {
  source_id: number;
  product_id: string;
  kind: 'dsld_label' | 'offer_page' | 'manufacturer' | 'retailer';
  url: string;
  host: string;
  retailer: string | null;
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
      RETURNING s.source_id, s.product_id, s.kind, s.url, s.host, s.retailer,
                (extract(epoch FROM s.cadence) * 1000)::bigint AS cadence_ms,
                s.etag, s.last_modified, s.last_evidence_sha256, s.consecutive_unreadable, s.last_outcome,
                s.lease_token, due.retaken`,
    values: [req.owner, req.limit, req.productId ?? null, req.leaseMs, req.exclude ?? []],
  });
  return rows;
}

/** Gives a lease back without a check (shutdown, or the host was busy): the source stays due. */
export async function releaseLease(pool: Pool, sourceId: number, token: string): Promise<void> {
  await pool.query({
    name: 'monitor-release-lease',
    text: 'UPDATE sources SET lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL WHERE source_id = $1 AND lease_token = $2',
    values: [sourceId, token],
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
