import type { Pool } from '@evidence-record/platform';

/** Kept evidence (decision 1004): what a check read, stored once under its SHA-256. */
export interface KeptEvidence {
  sha256: string;
  kind: 'dsld_label' | 'offer_page';
  media_type: string;
  content: Buffer;
  first_seen_at: Date;
}

export const SHA256 = /^[0-9a-f]{64}$/;

export async function keptEvidence(pool: Pool, sha256: string): Promise<KeptEvidence | null> {
  if (!SHA256.test(sha256)) return null;
  const { rows } = await pool.query<KeptEvidence>('SELECT sha256, kind, media_type, content, first_seen_at FROM evidence WHERE sha256 = $1', [sha256]);
  return rows[0] ?? null;
}

/** Which of these hashes have their bytes kept in the Record (the others were preserved outside it). */
export async function keptHashes(pool: Pool, hashes: Array<string | null>): Promise<Set<string>> {
  const wanted = [...new Set(hashes.filter((h): h is string => h !== null && SHA256.test(h)))];
  if (wanted.length === 0) return new Set();
  const { rows } = await pool.query<{ sha256: string }>('SELECT sha256 FROM evidence WHERE sha256 = ANY($1::text[])', [wanted]);
  return new Set(rows.map((r) => r.sha256));
}
