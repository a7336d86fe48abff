/**
 * A curation step the Record refuses (wrong state, inconsistent input). The
 * operator CLI prints its message; nothing is written.
 */
export class CurationRefused extends Error {
  override name = 'CurationRefused';
}
