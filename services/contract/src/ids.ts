import { randomBytes } from 'node:crypto';
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
export const stateIdPattern = /^hs_[0-9a-z]{12}$/;
export const requestIdPattern = /^req_[0-9a-f]{24}$/;

export const ProductId = z.string().max(120).regex(productIdPattern, 'not a canonical product id (resolve names with resolve_product first)');
export const SignalId = z.string().max(120).regex(signalIdPattern, 'not a Signal id');
export const IngredientId = z.string().max(120).regex(ingredientIdPattern, 'not an ingredient id');
export const EditionId = z.string().max(40).regex(editionIdPattern, 'not a ledger edition id (ed_YYYY_MM)');

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random lowercase base-36 string, used for new opaque ids. */
export function randomId(length = 12): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % 36];
  return out;
}
