import robotsParser from 'robots-parser';
import type { Pool } from '@evidence-record/platform';
import { FetchFailure, type Deadline, type Fetcher } from './fetcher';

/**
 * robots.txt, honoured for the monitor's User-Agent (RFC 9309, decision
 * 1006): kept per origin for a while; a missing file (4xx) allows
 * everything; an unreachable one (5xx, 429, timeout) disallows everything
 * until it can be read, as the RFC asks (and, for a 429, as politeness
 * does). It is read within the check's deadline and follows at most
 * ROBOTS_MAX_REDIRECTS redirects.
 *
 * What one replica read is shared through Postgres (`monitor_robots`), so a
 * host is asked for its robots.txt once per TTL whatever the number of
 * replicas; each replica also keeps it in memory until it expires.
 */
export type RobotsVerdict = 'rules' | 'allow_all' | 'unreachable';

export interface RobotsReading {
  verdict: RobotsVerdict;
  /** The file, for 'rules' (NUL characters dropped: Postgres text cannot hold them, and no rule contains one). */
  body: string | null;
  /** Epoch milliseconds. */
  fetchedAt: number;
  expiresAt: number;
}

interface Entry {
  allowed: (url: string) => boolean;
  until: number;
}

/** Unreachable files are retried after at most this long (RFC 9309 lets a crawler assume a full disallow meanwhile). */
const UNREACHABLE_RETRY_MS = 60_000;

/**
 * Redirects followed for robots.txt. RFC 9309 asks for at least five, but each hop is one more request within the
 * check's deadline, and a file that moves more than twice is treated as unreachable (disallow, retried in a minute).
 */
export const ROBOTS_MAX_REDIRECTS = 2;

export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  /** Where readings are shared; none with a TTL of 0, which keeps nothing. */
  private readonly store: Pool | undefined;
  constructor(
    private readonly fetcher: Fetcher,
    private readonly agentToken: string,
    private readonly ttlMs: number,
    pool?: Pool,
  ) {
    this.store = ttlMs > 0 ? pool : undefined;
  }

  /** Whether the monitor may read `url`; a read of robots.txt that the deadline cuts short throws the deadline's timeout. */
  async allowed(url: string, deadline: Deadline, now = Date.now()): Promise<boolean> {
    const origin = new URL(url).origin;
    let entry = this.entries.get(origin);
    if (!entry || entry.until < now) {
      const reading = (this.store && (await loadRobots(this.store, origin, now))) ?? (await this.read(origin, deadline, now));
      entry = this.entryOf(origin, reading);
      this.entries.set(origin, entry);
    }
    return entry.allowed(url);
  }

  private entryOf(origin: string, r: RobotsReading): Entry {
    if (r.verdict === 'rules') {
      const robotsUrl = `${origin}/robots.txt`;
      const robots = robotsParser(robotsUrl, r.body ?? '');
      return { allowed: (u) => robots.isAllowed(u, this.agentToken) !== false, until: r.expiresAt };
    }
    return { allowed: () => r.verdict === 'allow_all', until: r.expiresAt };
  }

  private async read(origin: string, deadline: Deadline, now: number): Promise<RobotsReading> {
    const reading = await this.fetch(origin, deadline, now);
    if (this.store) await saveRobots(this.store, origin, reading);
    return reading;
  }

  private async fetch(origin: string, deadline: Deadline, now: number): Promise<RobotsReading> {
    const unreachable: RobotsReading = { verdict: 'unreachable', body: null, fetchedAt: now, expiresAt: now + Math.min(this.ttlMs, UNREACHABLE_RETRY_MS) };
    try {
      const res = await this.fetcher.get(`${origin}/robots.txt`, { headers: { accept: 'text/plain' }, deadline, maxRedirects: ROBOTS_MAX_REDIRECTS });
      if (res.status >= 200 && res.status < 300) return { verdict: 'rules', body: res.body.toString('utf8').replaceAll('\0', ''), fetchedAt: now, expiresAt: now + this.ttlMs };
      // 429 is the host asking us to slow down, not a missing file: taken as unreachable (disallow, retried in a minute).
      if (res.status >= 400 && res.status < 500 && res.status !== 429) return { verdict: 'allow_all', body: null, fetchedAt: now, expiresAt: now + this.ttlMs };
      return unreachable;
    } catch (err) {
      if (err instanceof FetchFailure && (err.code === 'refused_address' || err.code === 'unsupported_scheme')) throw err;
      // The check ran out of time (perhaps elsewhere): that says nothing of this file, so nothing is kept.
      if (deadline.passed) throw deadline.failure();
      return unreachable;
    }
  }
}

export async function loadRobots(pool: Pool, origin: string, now: number): Promise<RobotsReading | null> {
  const { rows } = await pool.query<{ verdict: RobotsVerdict; body: string | null; fetched_at: Date; expires_at: Date }>({
    name: 'monitor-robots-load',
    text: `SELECT verdict, body, fetched_at, expires_at FROM monitor_robots WHERE origin = $1 AND expires_at > $2`,
    values: [origin, new Date(now)],
  });
  const r = rows[0];
  return r ? { verdict: r.verdict, body: r.body, fetchedAt: r.fetched_at.getTime(), expiresAt: r.expires_at.getTime() } : null;
}

/** Keeps the newest reading of an origin: an older one arriving late (a slow replica) does not replace it. */
export async function saveRobots(pool: Pool, origin: string, r: RobotsReading): Promise<void> {
  await pool.query({
    name: 'monitor-robots-save',
    text: `INSERT INTO monitor_robots AS m (origin, verdict, body, fetched_at, expires_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (origin) DO UPDATE SET verdict = EXCLUDED.verdict, body = EXCLUDED.body,
                                              fetched_at = EXCLUDED.fetched_at, expires_at = EXCLUDED.expires_at
            WHERE m.fetched_at <= EXCLUDED.fetched_at`,
    values: [origin, r.verdict, r.body, new Date(r.fetchedAt), new Date(r.expiresAt)],
  });
}
