import { CurationRefused } from './errors';

/**
 * Where a research or regulatory entry's reference may point (decision 1601):
 * an `https` address on the domain of an authority, or of a literature index
 * or publisher through which published research is cited. A domain admits
 * itself and its subdomains (`www.fda.gov`, `accessdata.fda.gov`).
 *
 * `authority` names whose own publications a domain carries: a documented
 * caution is the authority's own, so its reference must be on that
 * authority's domain and the entry must name that authority. A literature
 * index or publisher (`authority: null`) carries other people's work: fine
 * for research, never a caution's source.
 */
export interface ReferenceDomain {
  domain: string;
  authority: string | null;
  what: string;
}

export const referenceDomains: readonly ReferenceDomain[] = [
  { domain: 'fda.gov', authority: 'U.S. Food and Drug Administration', what: 'FDA warning letters, statements, guidance, import alerts, recalls, advisories' },
  { domain: 'ods.od.nih.gov', authority: 'NIH Office of Dietary Supplements', what: 'ODS fact sheets' },
  { domain: 'nccih.nih.gov', authority: 'National Center for Complementary and Integrative Health', what: 'NCCIH fact sheets' },
  { domain: 'ftc.gov', authority: 'U.S. Federal Trade Commission', what: 'FTC actions and warning letters' },
  { domain: 'justice.gov', authority: 'U.S. Department of Justice', what: 'DOJ actions and press releases' },
  { domain: 'cdc.gov', authority: 'U.S. Centers for Disease Control and Prevention', what: 'CDC reports (MMWR)' },
  { domain: 'usada.org', authority: 'U.S. Anti-Doping Agency', what: 'USADA Supplement 411 and high-risk lists' },
  { domain: 'wada-ama.org', authority: 'World Anti-Doping Agency', what: 'the WADA Prohibited List' },
  { domain: 'efsa.europa.eu', authority: 'European Food Safety Authority', what: 'EFSA opinions' },
  { domain: 'food.gov.uk', authority: 'UK Food Standards Agency', what: 'FSA statements' },
  { domain: 'tga.gov.au', authority: 'Therapeutic Goods Administration (Australia)', what: 'TGA alerts' },
  { domain: 'foodstandards.gov.au', authority: 'Food Standards Australia New Zealand', what: 'FSANZ statements' },
  { domain: 'nationalacademies.org', authority: 'National Academies (Institute of Medicine)', what: 'Dietary Reference Intakes' },
  { domain: 'nap.edu', authority: 'National Academies (Institute of Medicine)', what: 'National Academies Press reports (Dietary Reference Intakes)' },
  { domain: 'federalregister.gov', authority: null, what: 'the Federal Register (agencies\' rules and notices)' },
  { domain: 'regulations.gov', authority: null, what: 'rulemaking dockets' },
  { domain: 'ecfr.gov', authority: null, what: 'the Code of Federal Regulations' },
  { domain: 'ncbi.nlm.nih.gov', authority: null, what: 'PubMed and PubMed Central' },
  { domain: 'doi.org', authority: null, what: 'DOI links to published research' },
  { domain: 'biomedcentral.com', authority: null, what: 'BMC journals (J Int Soc Sports Nutr until 2020)' },
  { domain: 'tandfonline.com', authority: null, what: 'Taylor & Francis journals (J Int Soc Sports Nutr from 2021)' },
  { domain: 'bmj.com', authority: null, what: 'BMJ journals (Br J Sports Med)' },
];

const MAX_URL = 500;

/** The allow-listed domain a host belongs to, or null. */
export function referenceDomainOf(host: string): ReferenceDomain | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  return referenceDomains.find((d) => h === d.domain || h.endsWith(`.${d.domain}`)) ?? null;
}

/**
 * A reference address as the Record keeps it: `https`, no credentials, no
 * port, on an allow-listed domain. Refused with `invalid_reference` otherwise.
 */
export function referenceUrl(raw: string): { url: string; domain: ReferenceDomain } {
  const text = raw.trim();
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new CurationRefused(`the reference ${JSON.stringify(text.slice(0, 80))} is not an address`, 'invalid_reference');
  }
  if (u.protocol !== 'https:') throw new CurationRefused(`the reference must be an https address, not ${u.protocol.replace(/:$/, '')}`, 'invalid_reference');
  if (u.username || u.password) throw new CurationRefused('the reference must not carry credentials', 'invalid_reference');
  if (u.port) throw new CurationRefused('the reference must not name a port', 'invalid_reference');
  const domain = referenceDomainOf(u.hostname);
  if (!domain) {
    throw new CurationRefused(
      `${u.hostname} is not on the allow-list of reference domains (decision 1601: ${referenceDomains.map((d) => d.domain).join(', ')})`,
      'invalid_reference',
    );
  }
  const url = u.toString();
  if (url.length > MAX_URL) throw new CurationRefused(`the reference is ${url.length} characters; at most ${MAX_URL}`, 'invalid_reference');
  return { url, domain };
}
