/**
 * The one normalisation rule for names, aliases and queries. The Record
 * stores `name_norm`/`alias_norm`/`synonym_norm` made with this function
 * (the demo seed, curation and the monitor write them; the seed test checks
 * every stored column), so a lookup is an equality on an indexed column,
 * never a guess.
 *
 * NFKD with combining marks removed (accents), lowercase, "&" as " and ",
 * every run of characters that are not letters or digits as one space,
 * trimmed. Case, accents, punctuation and spacing never distinguish names.
 */
export function normalizeName(input: string): string {
  return input
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The words of a normalised string. */
export function words(normalized: string): string[] {
  return normalized.length === 0 ? [] : normalized.split(' ');
}
