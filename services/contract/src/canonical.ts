import { createHash } from 'node:crypto';

/**
 * Canonical JSON: the one serialisation a ledger edition's hash is computed
 * over, so the ledger service, the seed and any client recompute the same
 * `edition_hash` from the same document.
 *
 * Rules: object keys sorted recursively (JavaScript string order, i.e. by
 * UTF-16 code unit), no whitespace, strings and numbers as JSON.stringify
 * writes them, object properties whose value is undefined omitted (as
 * JSON.stringify and a jsonb round trip do). Values JSON cannot carry
 * (undefined in an array, NaN, Infinity, bigint, functions, symbols) are
 * refused rather than silently changed. The hash is over the UTF-8 bytes.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not representable in JSON`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value
          .map((item) => {
            if (item === undefined) throw new TypeError('canonicalJson: undefined inside an array');
            return canonicalJson(item);
          })
          .join(',')}]`;
      }
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not representable in JSON`);
  }
}

/** The published hash of a ledger edition document: SHA-256 (hex) of its canonical JSON. */
export function editionHash(document: unknown): string {
  return createHash('sha256').update(canonicalJson(document), 'utf8').digest('hex');
}
