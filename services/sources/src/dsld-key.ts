import { dsldOrigin, type MonitorSettings } from './settings';

/**
 * The data.gov key DSLD takes as its `api_key` query parameter (decision 1006): added at request time only (never
 * stored with a source, never logged), and only for DSLD's own origin, the origin of DSLD_BASE_URL. A label read from
 * anywhere else (an allow-listed mirror, a source added before the rule) and a redirect away from that origin never
 * carry it.
 */
type KeySettings = Pick<MonitorSettings, 'DSLD_BASE_URL' | 'DSLD_API_KEY'>;

/** The URL to request for a DSLD label: with the key when it is DSLD's origin and a key is set. */
export function withDsldKey(settings: KeySettings, url: string): string {
  if (!settings.DSLD_API_KEY) return url;
  const u = new URL(url);
  if (u.origin !== dsldOrigin(settings)) return url;
  u.searchParams.set('api_key', settings.DSLD_API_KEY);
  return u.toString();
}

/** Before a redirect hop: a hop that leaves DSLD's origin loses the key, even if DSLD's Location repeated the query. */
export function dropDsldKeyOffOrigin(settings: KeySettings, next: URL): void {
  const key = settings.DSLD_API_KEY;
  if (key && next.origin !== dsldOrigin(settings) && next.searchParams.get('api_key') === key) next.searchParams.delete('api_key');
}
