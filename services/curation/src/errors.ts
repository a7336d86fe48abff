/**
 * A curation step the Record refuses (wrong state, inconsistent input). The
 * operator CLI prints `{"error": code, "message"}` and exits 1; the console
 * shows the message. Nothing is written. `code` is one of the documented
 * refusal codes (docs/curation.md), `refused` when no finer one applies.
 */
export class CurationRefused extends Error {
  override name = 'CurationRefused';
  constructor(
    message: string,
    readonly code: string = 'refused',
  ) {
    super(message);
  }
}

/** An id that names nothing: a refusal, never a stack trace. */
export class NotFound extends CurationRefused {
  override name = 'NotFound';
  constructor(message: string) {
    super(message, 'not_found');
  }
}
