import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { randomId } from '@evidence-record/contract';
import { withTransaction, type Pool } from '@evidence-record/platform';
import { CurationRefused, operatorText } from '@evidence-record/curation';
import { endOperatorSessions, type Operator } from './sessions';

/**
 * Console operators. A credential is `erop_<operator_id>_<secret>`: the id
 * finds the row, the secret's SHA-256 is compared in constant time. Printed
 * once by `admin operator add`, never stored or logged.
 */
export type { Operator };

const credentialPattern = /^erop_(op_[0-9a-z]{12})_([0-9A-Za-z_-]{43})$/;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export async function addOperator(pool: Pool, rawName: string): Promise<{ operator_id: string; name: string; credential: string }> {
  const name = operatorText('the operator name', rawName, 100);
  const operatorId = `op_${randomId()}`;
  const secret = randomBytes(32).toString('base64url');
  const inserted = await pool.query(
    `INSERT INTO operators (operator_id, name, credential_sha256) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`,
    [operatorId, name, sha256(secret).toString('hex')],
  );
  if (!inserted.rowCount) throw new CurationRefused(`an operator named ${name} exists; names are unique (they sign every action)`, 'duplicate');
  return { operator_id: operatorId, name, credential: `erop_${operatorId}_${secret}` };
}

/** The operator a credential belongs to, or null: one answer for every wrong credential. */
export async function verifyCredential(pool: Pool, credential: string): Promise<Operator | null> {
  const m = credentialPattern.exec(credential.trim());
  // Compare against something even when the shape is wrong, so a malformed credential costs the same.
  const { rows } = await pool.query<{ operator_id: string; name: string; credential_sha256: string }>(
    'SELECT operator_id, name, credential_sha256 FROM operators WHERE operator_id = $1 AND disabled_at IS NULL',
    [m?.[1] ?? 'op_000000000000'],
  );
  const stored = Buffer.from(rows[0]?.credential_sha256 ?? '0'.repeat(64), 'hex');
  const given = sha256(m?.[2] ?? '');
  const same = timingSafeEqual(stored, given);
  return same && rows[0] ? { operator_id: rows[0].operator_id, name: rows[0].name } : null;
}

export async function recordAction(
  pool: Pool,
  op: Operator,
  action: string,
  target: string | null,
  outcome: 'done' | 'refused',
  detail: Record<string, unknown> = {},
): Promise<void> {
  await pool.query('INSERT INTO console_actions (operator_id, operator_name, action, target, outcome, detail) VALUES ($1, $2, $3, $4, $5, $6)', [
    op.operator_id,
    op.name,
    action,
    target,
    outcome,
    JSON.stringify(detail),
  ]);
}

/** The operator a credential claims to be (its id), or null when it is not shaped like a credential: what sign-in attempts are counted against. */
export function credentialOperatorId(credential: string): string | null {
  return credentialPattern.exec(credential.trim())?.[1] ?? null;
}

/** An operator as `operator list` shows it: never the credential or its hash. */
export interface OperatorListing {
  operator_id: string;
  name: string;
  status: 'active' | 'disabled';
  created_at: Date;
  disabled_at: Date | null;
  /** Console sessions signed in and not yet expired. */
  sessions: number;
  last_action_at: Date | null;
}

export async function listOperators(pool: Pool): Promise<OperatorListing[]> {
  const { rows } = await pool.query<Omit<OperatorListing, 'status'>>(
    `SELECT o.operator_id, o.name, o.created_at, o.disabled_at,
            (SELECT count(*)::int FROM console_sessions s WHERE s.sess->'operator'->>'operator_id' = o.operator_id AND s.expire > now()) AS sessions,
            (SELECT max(a.at) FROM console_actions a WHERE a.operator_id = o.operator_id) AS last_action_at
       FROM operators o ORDER BY o.created_at, o.operator_id`,
  );
  return rows.map((r) => ({ operator_id: r.operator_id, name: r.name, status: r.disabled_at ? 'disabled' : 'active', created_at: r.created_at, disabled_at: r.disabled_at, sessions: r.sessions, last_action_at: r.last_action_at }));
}

/** Which operator a CLI argument names: by id, or by name (names are unique). */
export interface OperatorRef {
  operatorId?: string;
  name?: string;
}

/**
 * Disables an operator and ends every console session of theirs in the same
 * transaction: the next request of any of their browsers finds no session.
 * A sign-in racing with this (credential checked just before, session saved
 * just after) is caught by the console's per-request check of the operator
 * (sessions.ts). Disabling twice keeps the first time.
 */
export async function disableOperator(pool: Pool, ref: OperatorRef): Promise<{ operator_id: string; name: string; disabled_at: Date; sessions_ended: number }> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ operator_id: string; name: string; disabled_at: Date }>(
      `UPDATE operators SET disabled_at = coalesce(disabled_at, now()) WHERE ${whereRef(ref)} RETURNING operator_id, name, disabled_at`,
      [refValue(ref)],
    );
    const op = rows[0];
    if (!op) throw notFound(ref);
    const sessionsEnded = await endOperatorSessions(client, op.operator_id);
    return { operator_id: op.operator_id, name: op.name, disabled_at: op.disabled_at, sessions_ended: sessionsEnded };
  });
}

/** Lets a disabled operator sign in again, with the credential they had (add a new operator instead if it may have leaked). */
export async function enableOperator(pool: Pool, ref: OperatorRef): Promise<{ operator_id: string; name: string; disabled_at: null }> {
  const { rows } = await pool.query<{ operator_id: string; name: string }>(`UPDATE operators SET disabled_at = NULL WHERE ${whereRef(ref)} RETURNING operator_id, name`, [refValue(ref)]);
  const op = rows[0];
  if (!op) throw notFound(ref);
  return { operator_id: op.operator_id, name: op.name, disabled_at: null };
}

function whereRef(ref: OperatorRef): string {
  return ref.operatorId !== undefined ? 'operator_id = $1' : 'name = $1';
}

function refValue(ref: OperatorRef): string {
  return ref.operatorId ?? ref.name ?? '';
}

function notFound(ref: OperatorRef): CurationRefused {
  return new CurationRefused(ref.operatorId !== undefined ? `no operator ${ref.operatorId}` : `no operator named ${ref.name ?? ''}`, 'not_found');
}
