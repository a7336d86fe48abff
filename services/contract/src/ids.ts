import { randomBytes, randomFillSync } from 'node:crypto';
import { z } from 'zod';

/**
 * Identifier formats. Canonical ids are opaque so that a name can never be
 * passed where an id is expected: callers resolve names first.
 */
export const productIdPattern = /^prd_[0-9a-z]{12}$/;
export const signalIdPattern = /^sig_[0-9a-z]{12}$/;
export const ingredientIdPattern = /^ing_[a-z0-9_]{2,60}$/;
export const brandIdPattern = /^brd_[a-z0-9_]{2,40}$/;
export const editionIdPattern = /^ed_\d{4}_(0[1-9]|1[0-2])$/;
export const requestIdPattern = /^req_[0-9a-f]{24}$/;

export const ProductId = z.string().max(120).regex(productIdPattern, 'not a canonical product id (resolve names with resolve_product first)');
export const SignalId = z.string().max(120).regex(signalIdPattern, 'not a Signal id');
export const IngredientId = z.string().max(120).regex(ingredientIdPattern, 'not an ingredient id');
export const EditionId = z.string().max(40).regex(editionIdPattern, 'not a ledger edition id (ed_YYYY_MM)');

// Request, trace and span ids are drawn on every request. Drawing a few bytes
// from the CSPRNG at a time cost ~10 µs a call in profiles (three per gateway
// request); drawing 4 KiB at once and handing out slices costs the same once
// per ~100 requests. Ids only need to be unpredictable and unique, never
// secret; key secrets are drawn fresh (keys.ts).
const entropy = Buffer.alloc(4096);
let entropyUsed = entropy.length;

/** `bytes` random bytes as lowercase hex (for ids, never for secrets). */
export function randomHex(bytes: number): string {
  if (bytes > entropy.length) return randomBytes(bytes).toString('hex');
  if (entropyUsed + bytes > entropy.length) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  const hex = entropy.toString('hex', entropyUsed, entropyUsed + bytes);
  entropyUsed += bytes;
  return hex;
}

export function newRequestId(): string {
  return `req_${randomHex(12)}`;
}

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random lowercase base-36 string, used for new opaque ids. */
export function randomId(length = 12): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % 36];
  return out;
}
