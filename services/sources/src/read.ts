import type { MonitorDeps } from './deps';
import { evidenceOf, loadEvidence, type Evidence } from './evidence';
import { FetchFailure, type Deadline, type FetchedResponse } from './fetcher';
import { kindOf } from './kinds';
import type { Parse, SourceKind, SourceSelector } from './kinds/kind';
import { claimHost, type LeasedSource } from './leases';
import type { Parsed, Reading } from './reading';
import { hostKey } from './sources';

/**
 * Reading a source (fetch, parse): what every kind shares — robots.txt, the
 * SSRF-guarded fetch with its validators and deadline, a redirect taking its
 * host's slot, the HTTP status rules, a 304 re-reading the kept evidence —
 * around what its kind does (kinds/*.ts). Writes nothing to the Record: the
 * recorder places the reading (place.ts).
 */

/** A redirect led to a host whose politeness slot another check holds: the check is given back and stays due. */
export class RedirectHostBusy extends Error {
  override name = 'RedirectHostBusy';
}

export function retryAfterMs(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Math.min(Number(value.trim()) * 1000, 86_400_000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now.getTime()), 86_400_000);
}

/** Reads a leased source; `redirectHosts` gathers the hosts whose slots a redirect took (the caller gives them back). */
export async function read(deps: MonitorDeps, src: LeasedSource, redirectHosts: string[], deadline: Deadline): Promise<Reading> {
  const kind = kindOf(src.kind);
  // Which part of what it reads this source is: its variant, and only when the page needs them, its label's UPCs.
  const parseAs = async <R>(parse: (selector: SourceSelector) => Parse<R>): Promise<Parse<R>> => {
    const first = parse({ variant: src.variant });
    if (first.ok || !first.needsLabel || !kind.select) return first;
    return parse(await kind.select(deps.pool, src));
  };
  let res: FetchedResponse;
  try {
    if (!(await deps.robots.allowed(src.url, deadline))) return { outcome: 'unreadable', reason: 'robots.txt disallows this address for the monitor', status: null, retryAfterMs: null };
    const headers: Record<string, string> = {};
    if (src.last_evidence_sha256) {
      if (src.etag) headers['if-none-match'] = src.etag;
      if (src.last_modified) headers['if-modified-since'] = src.last_modified;
    }
    // A redirect to another host is a request to that host: it takes that host's slot and obeys its robots.txt.
    const beforeRedirect = async (next: URL) => {
      kind.beforeRedirect?.(next, deps.settings);
      const host = hostKey(next);
      if (host !== src.host && !redirectHosts.includes(host)) {
        if (!(await claimHost(deps.pool, host, deps.owner, deps.settings.MONITOR_LEASE_MS))) throw new RedirectHostBusy(`${host} is busy`);
        redirectHosts.push(host);
      }
      if (!(await deps.robots.allowed(next.toString(), deadline))) throw new FetchFailure('robots_disallowed', `robots.txt disallows ${next.origin}${next.pathname} for the monitor`);
    };
    res = await deps.fetcher.get(kind.requestUrl(src.url, deps.settings), { headers, deadline, beforeRedirect });
  } catch (err) {
    if (err instanceof FetchFailure) return { outcome: 'unreadable', reason: `${err.code}: ${err.message}`.slice(0, 300), status: null, retryAfterMs: null };
    throw err;
  }
  const status = res.status;
  if (status === 304) {
    // Not modified: a valid check of the content last read.
    const kept = src.last_evidence_sha256 ? await loadEvidence(deps.pool, src.last_evidence_sha256) : null;
    if (!kept) return { outcome: 'valid', reason: 'not modified (no kept evidence to re-read)', status, evidence: null, parsed: null, validators: null, retryAfterMs: null };
    const again = await parseAs((selector) => reread(kept, selector));
    if (!again.ok) return { outcome: again.outcome, reason: again.reason, status, evidence: kept, retryAfterMs: null } as Reading;
    return { outcome: 'valid', reason: 'not modified', status, evidence: kept, parsed: again.reading, validators: null, retryAfterMs: null };
  }
  if (status === 404 || status === 410) return { outcome: 'empty', reason: `not found (${status})`, status, evidence: null, retryAfterMs: null };
  if (status === 429 || status === 503) {
    // The host that answered asked for the pause, so it is the one that waits (not the hosts that redirected here).
    const wait = retryAfterMs(res.headers['retry-after'], new Date());
    return { outcome: 'unreadable', reason: status === 429 ? 'rate limited (429)' : 'unavailable (503)', status, retryAfterMs: wait, retryAfterHost: hostKey(new URL(res.url)) };
  }
  if (status >= 500) return { outcome: 'unreadable', reason: `server error (${status})`, status, retryAfterMs: null };
  if (status < 200 || status >= 300) return { outcome: 'unreadable', reason: `HTTP ${status}`, status, retryAfterMs: null };

  const validators = { etag: res.headers['etag'] ?? null, lastModified: res.headers['last-modified'] ?? null };
  const parsed = await parseAs((selector) => kind.parse(res.body, selector));
  if (!parsed.ok) return parsed.outcome === 'empty' ? { outcome: 'empty', reason: parsed.reason, status, evidence: null, retryAfterMs: null } : { outcome: 'unreadable', reason: parsed.reason, status, retryAfterMs: null };
  const kept = kind.evidence(res.body, res.url, parsed.reading);
  const evidence = evidenceOf(kind.name, kept.mediaType, kept.content);
  return { outcome: 'valid', reason: null, status, evidence, parsed: { kind, reading: parsed.reading }, validators, retryAfterMs: null };
}

/** Kept evidence read again by the kind that kept it. */
function reread(e: Evidence, selector: SourceSelector): Parse<Parsed> {
  const kind: SourceKind = kindOf(e.kind);
  const p = kind.reread(e.content, selector);
  return p.ok ? { ok: true, reading: { kind, reading: p.reading } } : p;
}
