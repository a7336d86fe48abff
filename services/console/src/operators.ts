import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { randomId } from '@evidence-record/contract';
import type { Pool } from '@evidence-record/platform';
import { CurationRefused, operatorText } from '@evidence-record/curation';

/**
 * Console operators. A credential is `erop_<operator_id>_<secret>`: the id
 * finds the row, the secret's SHA-256 is compared in constant time. Printed
 * once by `admin operator add`, never stored or logged.
 */
export interface Operator {
  operator_id: string;
  name: string;
}

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

/** The session-signing key kept in the database: drawn by the first console to start, read by every other. */
export async function storedSessionSecret(pool: Pool): Promise<string> {
  await pool.query(`INSERT INTO console_settings (name, value) VALUES ('session_secret', $1) ON CONFLICT (name) DO NOTHING`, [randomBytes(32).toString('hex')]);
  const { rows } = await pool.query<{ value: string }>(`SELECT value FROM console_settings WHERE name = 'session_secret'`);
  return rows[0]!.value;
}
