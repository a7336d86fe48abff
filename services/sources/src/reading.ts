import type { Evidence } from './evidence';
import type { SourceKind } from './kinds/kind';

/** A valid reading of a source: its kind, and what the kind parsed. */
export interface Parsed {
  kind: SourceKind;
  reading: unknown;
}

/** What one check read (read.ts): the outcome, why, the evidence and the reading to place. */
export type Reading =
  /** `retryAfterHost`: the host (host:port) whose Retry-After `retryAfterMs` is; only that host waits it. */
  | { outcome: 'unreadable'; reason: string; status: number | null; retryAfterMs: number | null; retryAfterHost?: string }
  | { outcome: 'empty'; reason: string; status: number | null; evidence: Evidence | null; retryAfterMs: null }
  | {
      outcome: 'valid';
      reason: string | null;
      status: number;
      evidence: Evidence | null;
      parsed: Parsed | null;
      validators: { etag: string | null; lastModified: string | null } | null;
      retryAfterMs: null;
    };
