import {
  accountBoundScopes,
  generateKey,
  isScope,
  keyEnvironments,
  parseKey,
  scopes as allScopes,
  selfServiceScopes,
  type KeyEnvironment,
  type Scope,
} from '@evidence-record/contract';
import { withTransaction, type PoolClient } from '@evidence-record/platform';
import { announceKeyChange, clearExtractionState, readExtractionState } from '@evidence-record/access';
import { optional, positional, Refused, required, UsageError, type AdminContext, type Noun } from '../cli';
import { requireOrg } from './org';

/**
 * API keys. A key is printed once, when issued or rotated, and never again:
 * only the SHA-256 of its secret is stored. Every change is published so
 * that every gateway replica drops its cached copy at once.
 */

interface KeyRow {
  key_id: string;
  org_id: string;
  environment: KeyEnvironment;
  name: string | null;
  scopes: string[];
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  suspended_at: Date | null;
  suspended_reason: string | null;
  rotated_to: string | null;
}

// Never the secret hash.
const keyColumns = 'key_id, org_id, environment, name, scopes, created_at, expires_at, revoked_at, suspended_at, suspended_reason, rotated_to';

function statusOf(k: KeyRow, now = Date.now()): string {
  if (k.revoked_at) return k.rotated_to ? 'rotated' : 'revoked';
  if (k.expires_at && k.expires_at.getTime() <= now) return 'expired';
  if (k.suspended_at) return 'suspended';
  return 'active';
}

function describe(k: KeyRow): Record<string, unknown> {
  return { ...k, status: statusOf(k) };
}

/**
 * `K` is a key id, never a whole key: a secret on the command line stays in the
 * shell's history and shows in `ps` to every user of the machine. A whole key is
 * refused before anything is read or changed, naming the id to pass instead.
 */
function keyIdFrom(ctx: AdminContext): string {
  const raw = positional(ctx.flags, 0, 'key_id');
  // Anything shaped like a key (even mistyped) is treated as secret material.
  if (raw.startsWith('sk_')) {
    const id = parseKey(raw)?.keyId ?? null;
    throw new Refused(
      'whole_key_refused',
      `pass the key id${id ? ` (${id})` : ''}, not the whole key: a key on the command line stays in shell history and shows in ps; nothing was changed.${id ? ` If others can read this shell's history, rotate the key (key rotate ${id})` : ''}`,
    );
  }
  if (/^[0-9a-z]{16}$/.test(raw)) return raw;
  throw new UsageError('expected a key id (16 characters, the part of the key after sk_<env>_)');
}

async function requireKey(client: PoolClient | AdminContext['pool'], keyId: string, lock = false): Promise<KeyRow> {
  const { rows } = await client.query<KeyRow>(`SELECT ${keyColumns} FROM api_keys WHERE key_id = $1${lock ? ' FOR UPDATE' : ''}`, [keyId]);
  if (!rows[0]) throw new Refused('not_found', `no key ${keyId}`);
  return rows[0];
}

async function event(client: PoolClient, keyId: string, kind: string, detail: Record<string, unknown>): Promise<void> {
  await client.query('INSERT INTO key_events (key_id, kind, detail) VALUES ($1, $2, $3)', [keyId, kind, { by: 'operator', ...detail }]);
}

function parseScopes(raw: string): Scope[] {
  if (raw === 'all') return [...allScopes];
  const list = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  if (list.length === 0) throw new UsageError('--scopes names at least one scope');
  const unknown = list.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new UsageError(`unknown scope(s): ${unknown.join(', ')}; scopes are ${allScopes.join(', ')}`);
  return list as Scope[];
}

/**
 * Self-service (free) organisations get self-service scopes only. ledger:read
 * and watch:manage are granted against a named account: the organisation is on
 * a paid plan and bound to exactly one account.
 */
async function checkGrant(ctx: AdminContext, orgId: string, scopes: Scope[]): Promise<void> {
  const o = await requireOrg(ctx, orgId);
  const bound = scopes.filter((s) => accountBoundScopes.includes(s));
  if (o.self_service) {
    const refused = scopes.filter((s) => !selfServiceScopes.includes(s));
    if (refused.length > 0) throw new Refused('scope_not_granted', `plan ${o.plan_id} is self-service: ${refused.join(', ')} cannot be granted (self-service scopes: ${selfServiceScopes.join(', ')})`);
  }
  if (bound.length > 0) {
    const { rows } = await ctx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE org_id = $1', [orgId]);
    const n = rows[0]!.n;
    if (n === 0) throw new Refused('account_binding_required', `${bound.join(', ')} is granted against a named account: organisation ${orgId} is bound to no account (account create --org ${orgId} --email …)`);
    // Never advise a second account: that is what breaks the binding (one account per organisation).
    if (n > 1) throw new Refused('account_binding_required', `${bound.join(', ')} is granted against a named account: organisation ${orgId} is bound to ${n} accounts, it needs exactly one (account list --org ${orgId}, then account unbind <account_id> for each extra one)`);
  }
}

function parseExpiry(raw: string | undefined): Date | null {
  if (raw === undefined) return null;
  const at = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(at.getTime())) throw new UsageError('--expires-at is an ISO 8601 date or date-time');
  if (at.getTime() <= Date.now()) throw new UsageError('--expires-at is in the past');
  return at;
}

async function insertKey(
  client: PoolClient,
  k: { orgId: string; environment: KeyEnvironment; scopes: string[]; name: string | null; expiresAt: Date | null; suspendedAt?: Date | null; suspendedReason?: string | null },
): Promise<{ key: string; keyId: string }> {
  const { key, keyId, secretHash } = generateKey(k.environment);
  await client.query(
    `INSERT INTO api_keys (key_id, org_id, environment, secret_sha256, scopes, name, expires_at, suspended_at, suspended_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [keyId, k.orgId, k.environment, secretHash, k.scopes, k.name, k.expiresAt, k.suspendedAt ?? null, k.suspendedReason ?? null],
  );
  return { key, keyId };
}

export const key: Noun = {
  noun: 'key',
  summary: 'API keys: issue, rotate, revoke, suspend, unsuspend, list, show, events (a key is printed once)',
  verbs: {
    issue: {
      usage: "--org O --scopes a,b,c|all [--env live|test] [--expires-at ISO] [--name N]",
      run: async (ctx) => {
        const orgId = required(ctx.flags, 'org');
        const scopes = parseScopes(required(ctx.flags, 'scopes'));
        const environment = (optional(ctx.flags, 'env') ?? 'live') as KeyEnvironment;
        if (!keyEnvironments.includes(environment)) throw new UsageError(`--env is ${keyEnvironments.join(' or ')}`);
        const expiresAt = parseExpiry(optional(ctx.flags, 'expires-at'));
        const name = optional(ctx.flags, 'name') ?? null;
        await checkGrant(ctx, orgId, scopes);
        const issued = await withTransaction(ctx.pool, async (client) => {
          const k = await insertKey(client, { orgId, environment, scopes, name, expiresAt });
          await event(client, k.keyId, 'issued', { scopes, environment, expires_at: expiresAt });
          return k;
        });
        // A replica may remember this id as unknown (negative cache): tell it.
        await announceKeyChange(ctx, issued.keyId).catch(() => undefined);
        return { key: issued.key, key_id: issued.keyId, org_id: orgId, environment, scopes, name, expires_at: expiresAt };
      },
    },
    rotate: {
      usage: '<key_id>   (a new key with the same organisation, scopes, environment and expiry; the old one is revoked)',
      run: async (ctx) => {
        const oldId = keyIdFrom(ctx);
        const rotated = await withTransaction(ctx.pool, async (client) => {
          const old = await requireKey(client, oldId, true);
          if (old.revoked_at) throw new Refused('key_revoked', `key ${oldId} is ${statusOf(old)}; issue a new key instead`);
          // A suspension is about the holder, not the secret: the new key keeps it.
          const k = await insertKey(client, {
            orgId: old.org_id,
            environment: old.environment,
            scopes: old.scopes,
            name: old.name,
            expiresAt: old.expires_at,
            suspendedAt: old.suspended_at,
            suspendedReason: old.suspended_reason,
          });
          await client.query('UPDATE api_keys SET revoked_at = now(), rotated_to = $2 WHERE key_id = $1', [oldId, k.keyId]);
          await event(client, oldId, 'rotated', { rotated_to: k.keyId });
          await event(client, k.keyId, 'issued', { rotated_from: oldId, scopes: old.scopes, environment: old.environment });
          return { ...k, orgId: old.org_id };
        });
        const notified = await announceKeyChange(ctx, oldId);
        await announceKeyChange(ctx, rotated.keyId).catch(() => undefined);
        return { key: rotated.key, key_id: rotated.keyId, replaces: oldId, org_id: rotated.orgId, gateways_notified: notified };
      },
    },
    revoke: {
      usage: '<key_id>',
      run: async (ctx) => {
        const keyId = keyIdFrom(ctx);
        const revokedAt = await withTransaction(ctx.pool, async (client) => {
          const k = await requireKey(client, keyId, true);
          if (k.revoked_at) return k.revoked_at;
          const { rows } = await client.query<{ revoked_at: Date }>('UPDATE api_keys SET revoked_at = now() WHERE key_id = $1 RETURNING revoked_at', [keyId]);
          await event(client, keyId, 'revoked', {});
          return rows[0]!.revoked_at;
        });
        const notified = await announceKeyChange(ctx, keyId);
        return { key_id: keyId, revoked_at: revokedAt, gateways_notified: notified };
      },
    },
    suspend: {
      usage: '<key_id> [--reason R]',
      run: async (ctx) => {
        const keyId = keyIdFrom(ctx);
        const reason = optional(ctx.flags, 'reason') ?? 'suspended by operator';
        const suspendedAt = await withTransaction(ctx.pool, async (client) => {
          await requireKey(client, keyId, true);
          const { rows } = await client.query<{ suspended_at: Date }>(
            'UPDATE api_keys SET suspended_at = coalesce(suspended_at, now()), suspended_reason = $2 WHERE key_id = $1 RETURNING suspended_at',
            [keyId, reason],
          );
          await event(client, keyId, 'suspended', { reason });
          return rows[0]!.suspended_at;
        });
        const notified = await announceKeyChange(ctx, keyId);
        return { key_id: keyId, suspended_at: suspendedAt, suspended_reason: reason, gateways_notified: notified };
      },
    },
    unsuspend: {
      usage: '<key_id> [--note N]   (also clears the extraction score and cool-down)',
      run: async (ctx) => {
        const keyId = keyIdFrom(ctx);
        const note = optional(ctx.flags, 'note') ?? null;
        const k = await withTransaction(ctx.pool, async (client) => {
          const row = await requireKey(client, keyId, true);
          await client.query('UPDATE api_keys SET suspended_at = NULL, suspended_reason = NULL WHERE key_id = $1', [keyId]);
          await event(client, keyId, 'unsuspended', { previous_reason: row.suspended_reason, note });
          return row;
        });
        await clearExtractionState(ctx, k.org_id, keyId);
        const notified = await announceKeyChange(ctx, keyId);
        return { key_id: keyId, suspended_at: null, previous_reason: k.suspended_reason, gateways_notified: notified };
      },
    },
    list: {
      usage: '--org O   (never secrets or hashes)',
      run: async (ctx) => {
        const orgId = required(ctx.flags, 'org');
        await requireOrg(ctx, orgId);
        const { rows } = await ctx.pool.query<KeyRow>(`SELECT ${keyColumns} FROM api_keys WHERE org_id = $1 ORDER BY created_at, key_id`, [orgId]);
        return { org_id: orgId, keys: rows.map(describe) };
      },
    },
    show: {
      usage: '<key_id>   (status, why it is suspended, live extraction score, recent events)',
      run: async (ctx) => {
        const keyId = keyIdFrom(ctx);
        const k = await requireKey(ctx.pool, keyId);
        const o = await requireOrg(ctx, k.org_id);
        const events = await ctx.pool.query('SELECT event_id, at, kind, detail FROM key_events WHERE key_id = $1 ORDER BY at DESC, event_id DESC LIMIT 10', [keyId]);
        return {
          key: describe(k),
          organisation: { org_id: o.org_id, name: o.name, plan_id: o.plan_id, suspended_at: o.suspended_at },
          extraction: await readExtractionState(ctx, k.org_id, keyId),
          recent_events: events.rows,
        };
      },
    },
    events: {
      usage: '<key_id> [--limit N]',
      run: async (ctx) => {
        const keyId = keyIdFrom(ctx);
        await requireKey(ctx.pool, keyId);
        const limit = Number(optional(ctx.flags, 'limit') ?? 100);
        if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit is an integer from 1 to 10000');
        const { rows } = await ctx.pool.query('SELECT event_id, at, kind, detail FROM key_events WHERE key_id = $1 ORDER BY at DESC, event_id DESC LIMIT $2', [keyId, limit]);
        return { key_id: keyId, events: rows };
      },
    },
  },
};
