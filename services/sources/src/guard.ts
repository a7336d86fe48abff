import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard (OWASP API7, decision 1005). A source URL is http(s) and
 * reaches public addresses only: loopback, private, link-local (cloud
 * metadata at 169.254.169.254), unique-local, unspecified, carrier-grade NAT,
 * multicast and every other special range are refused. The check runs at
 * `source add` and on every hop of every fetch, after DNS resolution, and the
 * connection is made to the address that was checked (see pinnedLookup), so
 * a name that answers differently the second time cannot slip through.
 */
export interface AddressPolicy {
  /** Host names admitted whatever they resolve to; ".example.org" admits the domain and its sub-domains. */
  allowHosts: string[];
  /** Local stack only: http://127.0.0.1 on any port. */
  allowLocalhost: boolean;
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export class AddressRefused extends Error {
  override name = 'AddressRefused';
  constructor(
    message: string,
    readonly code: 'unsupported_scheme' | 'refused_address' | 'dns_failure' | 'invalid_url' = 'refused_address',
  ) {
    super(message);
  }
}

/** IPv6's global unicast block (RFC 4291 §2.4): every other IPv6 address is special, reserved or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Only globally routable unicast addresses pass; ipaddr.js names every special range. For IPv6 that is not
 * enough: ipaddr.js calls everything it has no name for "unicast", including the deprecated IPv4-compatible
 * block ::/96 (`[::127.0.0.1]` is ::7f00:1, which some stacks route to 127.0.0.1) and every unassigned block.
 * So an IPv6 address must also lie in 2000::/3; IPv4-mapped ones (::ffff:0:0/96) are refused too, whatever
 * IPv4 address they carry.
 */
export function isPublicAddress(ip: string): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return false;
  }
  if (addr.kind() === 'ipv6' && !(addr as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return false;
  return addr.range() === 'unicast';
}

export function hostAllowListed(hostname: string, policy: AddressPolicy): boolean {
  const h = hostname.toLowerCase();
  return policy.allowHosts.some((a) => (a.startsWith('.') ? h.endsWith(a) || h === a.slice(1) : h === a));
}

function bareHost(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** True when the URL is the local stack's admitted http://127.0.0.1 (any port). */
export function isAdmittedLocalhost(url: URL, policy: AddressPolicy): boolean {
  return policy.allowLocalhost && url.protocol === 'http:' && url.hostname === '127.0.0.1';
}

export function parseSourceUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AddressRefused(`${raw} is not a URL`, 'invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AddressRefused(`only http and https sources are read, not ${url.protocol}`, 'unsupported_scheme');
  if (url.username || url.password) throw new AddressRefused('a source URL carries no credentials', 'invalid_url');
  return url;
}

/**
 * Checks a URL before a request: the scheme, and the address for an IP
 * literal (a literal is connected to directly, without a lookup). A name is
 * checked when it is resolved, by pinnedLookup.
 */
export function checkUrl(url: URL, policy: AddressPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AddressRefused(`only http and https are followed, not ${url.protocol}`, 'unsupported_scheme');
  if (isAdmittedLocalhost(url, policy)) return;
  const host = bareHost(url);
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw new AddressRefused(`${host} is not a public address`);
    return;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!hostAllowListed(host, policy)) throw new AddressRefused(`${host} names this machine`);
  }
}

/** Resolves a name and returns the addresses to connect to, refusing the name if any answer is not public. */
export async function resolveChecked(hostname: string, policy: AddressPolicy, resolve: Resolver): Promise<Array<{ address: string; family: number }>> {
  if (isIP(hostname)) {
    if (!isPublicAddress(hostname) && !(policy.allowLocalhost && hostname === '127.0.0.1')) throw new AddressRefused(`${hostname} is not a public address`);
    return [{ address: hostname, family: isIP(hostname) }];
  }
  let answers: Array<{ address: string; family: number }>;
  try {
    answers = await resolve(hostname);
  } catch (err) {
    throw new AddressRefused(`${hostname} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'dns_failure');
  }
  if (answers.length === 0) throw new AddressRefused(`${hostname} does not resolve`, 'dns_failure');
  if (hostAllowListed(hostname, policy)) return answers;
  // One private answer refuses the name: a client may otherwise connect to whichever it likes.
  const bad = answers.find((a) => !isPublicAddress(a.address));
  if (bad) throw new AddressRefused(`${hostname} resolves to ${bad.address}, which is not a public address`);
  return answers;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | Array<{ address: string; family: number }>, family?: number) => void;

/**
 * A `lookup` for net/tls.connect (undici's `connect.lookup`): the socket
 * connects to exactly the address this function checked, so there is no
 * window between the check and the connection for DNS rebinding.
 */
export function pinnedLookup(policy: AddressPolicy, resolve: Resolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolveChecked(hostname, policy, resolve).then(
      (answers) => {
        if (options?.all) callback(null, answers);
        else callback(null, answers[0]!.address, answers[0]!.family);
      },
      (err: AddressRefused) => {
        const e = Object.assign(new Error(err.message), { code: err.code === 'dns_failure' ? 'ENOTFOUND' : 'EADDRREFUSED', refusal: err }) as NodeJS.ErrnoException;
        callback(e, '', 0);
      },
    );
  };
}

/** At `source add`: the URL parses, is http(s), and its host resolves to admitted addresses only. */
export async function checkSourceUrl(raw: string, policy: AddressPolicy, resolve: Resolver = systemResolver): Promise<URL> {
  const url = parseSourceUrl(raw);
  checkUrl(url, policy);
  if (!isAdmittedLocalhost(url, policy)) await resolveChecked(bareHost(url), policy, resolve);
  return url;
}
