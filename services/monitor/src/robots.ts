import robotsParser from 'robots-parser';
import { FetchFailure, type Fetcher } from './fetcher';

/**
 * robots.txt, honoured for the monitor's User-Agent (RFC 9309, decision
 * 1006): kept per origin for a while; a missing file (4xx) allows
 * everything; an unreachable one (5xx, timeout) disallows everything until
 * it can be read, as the RFC asks.
 */
interface Entry {
  allowed: (url: string) => boolean;
  until: number;
}

export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  constructor(
    private readonly fetcher: Fetcher,
    private readonly agentToken: string,
    private readonly ttlMs: number,
  ) {}

  async allowed(url: string, now = Date.now()): Promise<boolean> {
    const origin = new URL(url).origin;
    let entry = this.entries.get(origin);
    if (!entry || entry.until < now) {
      entry = await this.read(origin, now);
      this.entries.set(origin, entry);
    }
    return entry.allowed(url);
  }

  private async read(origin: string, now: number): Promise<Entry> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const res = await this.fetcher.get(robotsUrl, { accept: 'text/plain' });
      if (res.status >= 200 && res.status < 300) {
        const robots = robotsParser(robotsUrl, res.body.toString('utf8'));
        return { allowed: (u) => robots.isAllowed(u, this.agentToken) !== false, until: now + this.ttlMs };
      }
      if (res.status >= 400 && res.status < 500) return { allowed: () => true, until: now + this.ttlMs };
      return { allowed: () => false, until: now + Math.min(this.ttlMs, 60_000) };
    } catch (err) {
      if (err instanceof FetchFailure && (err.code === 'refused_address' || err.code === 'unsupported_scheme')) throw err;
      return { allowed: () => false, until: now + Math.min(this.ttlMs, 60_000) };
    }
  }
}
