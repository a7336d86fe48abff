import { createHash } from 'node:crypto';
import type { MonitoredSourceKind } from '@evidence-record/contract';
import type { PoolClient, Pool } from '@evidence-record/platform';

/**
 * Evidence, content-addressed (decision 1004): what a check read, stored once
 * per distinct content under its SHA-256, as its source kind keeps it
 * (kinds/*.ts: a DSLD label's JSON as served; an offer page's JSON-LD blocks
 * and the address that served them). Never read by the API.
 */
export interface Evidence {
  sha256: string;
  kind: MonitoredSourceKind;
  mediaType: string;
  content: Buffer;
}

export function evidenceOf(kind: Evidence['kind'], mediaType: string, content: Buffer): Evidence {
  return { sha256: createHash('sha256').update(content).digest('hex'), kind, mediaType, content };
}

/** Keeps what a batch of checks read; content already kept (the same SHA-256) is not written again. */
export async function keepEvidence(client: PoolClient, read: Evidence[]): Promise<void> {
  const distinct = [...new Map(read.map((e) => [e.sha256, e])).values()];
  if (distinct.length === 0) return;
  await client.query({
    name: 'monitor-keep-evidence',
    text: `INSERT INTO evidence (sha256, kind, media_type, content, byte_length)
           SELECT sha256, kind, media_type, content, length(content) FROM unnest($1::text[], $2::text[], $3::text[], $4::bytea[]) AS e(sha256, kind, media_type, content)
           ON CONFLICT (sha256) DO NOTHING`,
    values: [distinct.map((e) => e.sha256), distinct.map((e) => e.kind), distinct.map((e) => e.mediaType), distinct.map((e) => e.content)],
  });
}

export async function loadEvidence(pool: Pool, sha256: string): Promise<Evidence | null> {
  const { rows } = await pool.query<{ kind: Evidence['kind']; media_type: string; content: Buffer }>({
    name: 'monitor-load-evidence',
    text: 'SELECT kind, media_type, content FROM evidence WHERE sha256 = $1',
    values: [sha256],
  });
  const r = rows[0];
  return r ? { sha256, kind: r.kind, mediaType: r.media_type, content: r.content } : null;
}
