import { createHash } from 'node:crypto';

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A deterministic 12-character [0-9a-z] id part derived from a stable name,
 * so the demo Record has the same ids on every machine and every run:
 * sha256(`<namespace>:<kind>:<name>`), each of the first 12 bytes mod 36.
 */
export function stableId(kind: string, name: string, namespace = 'demo'): string {
  const digest = createHash('sha256').update(`${namespace}:${kind}:${name}`).digest();
  let out = '';
  for (let i = 0; i < 12; i++) out += alphabet[digest[i]! % 36];
  return out;
}

export const productId = (slug: string) => `prd_${stableId('product', slug)}`;
export const stateId = (productSlug: string, stateKey: string) => `hs_${stableId('state', `${productSlug}:${stateKey}`)}`;
export const signalId = (candidateKey: string) => `sig_${stableId('signal', candidateKey)}`;

/** Hex SHA-256 of a string: stands in for the hash of a preserved source. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A small deterministic number in [0, n) from a name, for spreading dates and prices. */
export function stableInt(name: string, n: number): number {
  return createHash('sha256').update(`demo:int:${name}`).digest().readUInt32BE(0) % n;
}
