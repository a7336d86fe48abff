import { randomBytes } from 'node:crypto';
import { JSONCodec, type NatsConnection } from 'nats';
import { headers, randomId, streamNames, type SignalReleasedEvent } from '@evidence-record/contract';
import { withRecordChange, withTransaction, type Pool } from '@evidence-record/platform';
export { waitFor } from './wait';

/**
 * Record and customer fixtures for watch and alert tests, written with the
 * same SQL shapes the Record uses. Until the demo seed lands, tests build
 * their own small Record on an empty database.
 */
export interface ProductFixture {
  productId: string;
  name: string;
}

export async function insertBrand(pool: Pool, brandId = `brd_t${randomId(8)}`, name = 'Test Brand'): Promise<string> {
  await withRecordChange(pool, 'test brand', (c) =>
    c.query('INSERT INTO brands (brand_id, name, name_norm) VALUES ($1, $2, lower($2))', [brandId, name]),
  );
  return brandId;
}

export async function insertProduct(
  pool: Pool,
  brandId: string,
  opts: { name?: string; retiredOn?: string | null; depth?: 'REGISTERED' | 'CAPTURED' | 'TRACKED' } = {},
): Promise<ProductFixture> {
  const productId = `prd_${randomId()}`;
  const name = opts.name ?? `Product ${productId.slice(4, 9)}`;
  await withRecordChange(pool, 'test product', (c) =>
    c.query(
      `INSERT INTO products (product_id, brand_id, name, name_norm, form, depth_class, retired_on)
       VALUES ($1, $2, $3, lower($3), 'powder', $4, $5)`,
      [productId, brandId, name, opts.depth ?? 'TRACKED', opts.retiredOn ?? null],
    ),
  );
  return { productId, name };
}

export async function insertSpan(pool: Pool, productId: string, startedOn: string, endedOn: string | null = null): Promise<void> {
  await withRecordChange(pool, 'test monitoring span', (c) =>
    c.query('INSERT INTO monitoring_spans (product_id, started_on, ended_on) VALUES ($1, $2, $3)', [productId, startedOn, endedOn]),
  );
}

export async function insertSource(
  pool: Pool,
  productId: string,
  opts: { health?: 'readable' | 'unreadable'; lastReadAt?: string | null; healthSince?: string; url?: string } = {},
): Promise<number> {
  const { result } = await withRecordChange(pool, 'test source', (c) =>
    c.query<{ source_id: number }>(
      `INSERT INTO sources (product_id, kind, url, health, health_since, last_read_at)
       VALUES ($1, 'manufacturer', $2, $3, $4, $5) RETURNING source_id`,
      [productId, opts.url ?? `https://secret-source.example/${productId}`, opts.health ?? 'readable', opts.healthSince ?? new Date().toISOString(), opts.lastReadAt ?? null],
    ),
  );
  return result.rows[0]!.source_id;
}

export async function insertCheck(
  pool: Pool,
  productId: string,
  checkedAt: string,
  outcome: 'valid' | 'empty' | 'unreadable',
  recovered = false,
  sourceId: number | null = null,
): Promise<void> {
  await withRecordChange(pool, 'test monitoring check', (c) =>
    c.query('INSERT INTO monitoring_checks (product_id, source_id, checked_at, outcome, recovered) VALUES ($1, $2, $3, $4, $5)', [
      productId,
      sourceId,
      checkedAt,
      outcome,
      recovered,
    ]),
  );
}

export interface CustomerFixture {
  orgId: string;
  accountId: string;
  email: string;
}

/** One organisation on `plan` bound to one account (what the gateway requires for watch calls). */
export async function insertCustomer(pool: Pool, plan = 'pro', email?: string): Promise<CustomerFixture> {
  const orgId = `org_${randomId()}`;
  const accountId = `acc_${randomId()}`;
  const address = email ?? `${accountId}@customers.example`;
  await withTransaction(pool, async (c) => {
    await c.query('INSERT INTO organizations (org_id, name, plan_id) VALUES ($1, $2, $3)', [orgId, `Org ${orgId}`, plan]);
    await c.query('INSERT INTO accounts (account_id, org_id, email) VALUES ($1, $2, $3)', [accountId, orgId, address]);
  });
  return { orgId, accountId, email: address };
}

export async function insertWatch(pool: Pool, accountId: string, productId: string, createdAt?: string): Promise<void> {
  await pool.query('INSERT INTO watches (account_id, product_id, created_at) VALUES ($1, $2, coalesce($3::timestamptz, now()))', [accountId, productId, createdAt ?? null]);
}

/** The identity headers the gateway forwards for a key bound to `customer`. */
export function callerHeaders(customer: CustomerFixture | null, watchLimit?: number): Record<string, string> {
  const h: Record<string, string> = { [headers.requestId]: `req_${randomBytes(12).toString('hex')}`, [headers.keyId]: randomId(16) };
  if (customer) {
    h[headers.orgId] = customer.orgId;
    h[headers.accountId] = customer.accountId;
    h[headers.planId] = 'pro';
  }
  if (watchLimit !== undefined) h[headers.watchLimit] = String(watchLimit);
  return h;
}

/**
 * Releases one Signal the way the Signals service does: an approved
 * candidate, a release batch on a new release date, the Signal, and its
 * SignalReleasedEvent written to the outbox in the same transaction.
 */
export async function releaseSignal(
  pool: Pool,
  product: ProductFixture,
  opts: { summary?: string; dimension?: string; exactChangeDate?: string | null; publicBaseUrl?: string; releaseDate?: string } = {},
): Promise<SignalReleasedEvent> {
  const signalId = `sig_${randomId()}`;
  const summary = opts.summary ?? 'Caffeine per serving changed from 200 mg to 300 mg.';
  const dimension = opts.dimension ?? 'formula';
  const { result } = await withRecordChange(pool, 'test release', async (c) => {
    const latest = await c.query<{ d: string | null }>(`SELECT max(release_date)::text AS d FROM release_batches`);
    // Release dates only move forward: the next free day after the newest batch.
    const releaseDate =
      opts.releaseDate ??
      (latest.rows[0]?.d ? new Date(Date.parse(`${latest.rows[0].d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) : '2026-01-01');
    const brand = await c.query<{ brand_id: string; brand_name: string }>(
      'SELECT p.brand_id, b.name AS brand_name FROM products p JOIN brands b USING (brand_id) WHERE p.product_id = $1',
      [product.productId],
    );
    const cand = await c.query<{ candidate_id: number }>(
      `INSERT INTO candidates (product_id, dimension, window_start, window_end, exact_change_date, summary, status, reviewer, reviewed_at)
       VALUES ($1, $2, '2025-11-02', '2025-12-14', $3, $4, 'approved', 'reviewer@test', now()) RETURNING candidate_id`,
      [product.productId, dimension, opts.exactChangeDate ?? null, summary],
    );
    const batch = await c.query<{ batch_id: number }>(`INSERT INTO release_batches (release_date, released_by) VALUES ($1, 'test') RETURNING batch_id`, [releaseDate]);
    await c.query(
      `INSERT INTO signals (signal_id, candidate_id, product_id, dimension, window_start, window_end, exact_change_date, summary, batch_id, released_on)
       VALUES ($1, $2, $3, $4, '2025-11-02', '2025-12-14', $5, $6, $7, $8)`,
      [signalId, cand.rows[0]!.candidate_id, product.productId, dimension, opts.exactChangeDate ?? null, summary, batch.rows[0]!.batch_id, releaseDate],
    );
    const event: SignalReleasedEvent = {
      event_id: `evt_${randomId(16)}`,
      signal_id: signalId,
      product_id: product.productId,
      product_name: product.name,
      brand_name: brand.rows[0]!.brand_name,
      dimension,
      summary,
      observation_window: { start: '2025-11-02', end: '2025-12-14', exact_change_date: opts.exactChangeDate ?? null },
      released_at: releaseDate,
      signal_url: `${opts.publicBaseUrl ?? 'http://127.0.0.1:8080'}/api/v1/signals/${signalId}`,
    };
    await c.query(`INSERT INTO event_outbox (event_id, subject_kind, payload) VALUES ($1, 'signal.released', $2)`, [event.event_id, JSON.stringify(event)]);
    return event;
  });
  return result;
}

const json = JSONCodec();

/**
 * The outbox relay as the Signals service runs it: publish every unpublished
 * SignalReleasedEvent (message id = event id), then mark it published. A
 * failure leaves the row for the next pass.
 */
export async function relayOutbox(pool: Pool, nc: NatsConnection, natsPrefix: string): Promise<number> {
  const js = nc.jetstream();
  const subject = streamNames(natsPrefix).signals.released;
  const { rows } = await pool.query<{ event_id: string; payload: SignalReleasedEvent }>(
    `SELECT event_id, payload FROM event_outbox WHERE published_at IS NULL AND subject_kind = 'signal.released' ORDER BY created_at`,
  );
  let published = 0;
  for (const row of rows) {
    try {
      await js.publish(subject, json.encode(row.payload), { msgID: row.event_id, timeout: 2_000 });
      await pool.query('UPDATE event_outbox SET published_at = now(), attempts = attempts + 1 WHERE event_id = $1', [row.event_id]);
      published++;
    } catch (err) {
      await pool.query('UPDATE event_outbox SET attempts = attempts + 1, last_error = $2 WHERE event_id = $1', [row.event_id, String(err)]);
    }
  }
  return published;
}

