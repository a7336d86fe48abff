/**
 * The name-normalisation rule for brand names, product names, aliases and
 * ingredient synonyms (`*_norm` columns). The record service resolves names
 * with the same rule, so "Pre-Workout", "pre workout" and "PRE–WORKOUT" are
 * one name, and "Drumlin & Vane" equals "drumlin and vane".
 *
 * 1. Unicode NFKD, then combining marks removed (accents stripped: "é" → "e").
 * 2. Lowercased.
 * 3. "&" becomes " and ".
 * 4. Every run of characters that are not Unicode letters or digits
 *    (punctuation, symbols, whitespace) becomes one space.
 * 5. Leading and trailing spaces trimmed.
 */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
