import { describe, expect, it } from 'vitest';
import { CurationRefused, contextDate, contextKindOf, referenceDomainOf, referenceUrl } from '@evidence-record/curation';

/** The pure rules of curated research and regulatory entries (decision 1601); the verbs are tested end to end in test/e2e/context-curation.e2e.test.ts. */
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof CurationRefused) return err.code;
    throw err;
  }
  return 'accepted';
};

describe('reference addresses', () => {
  it('admits https on an allow-listed domain or its subdomains, and names the domain\'s authority', () => {
    expect(referenceUrl('https://www.fda.gov/food/dietary-supplements/x').domain).toMatchObject({ domain: 'fda.gov', authority: 'U.S. Food and Drug Administration' });
    expect(referenceUrl(' https://accessdata.fda.gov/cms_ia/importalert_1.html ').url).toBe('https://accessdata.fda.gov/cms_ia/importalert_1.html');
    expect(referenceUrl('https://pubmed.ncbi.nlm.nih.gov/12345678/').domain).toMatchObject({ domain: 'ncbi.nlm.nih.gov', authority: null });
    expect(referenceDomainOf('ODS.OD.NIH.GOV.')?.authority).toBe('NIH Office of Dietary Supplements');
  });

  it('refuses other schemes, credentials, ports, look-alike hosts and hosts off the list', () => {
    for (const bad of [
      'http://www.fda.gov/x',
      'ftp://fda.gov/x',
      'https://a:b@fda.gov/x',
      'https://fda.gov:444/x',
      'https://notfda.gov/x',
      'https://fda.gov.example.com/x',
      'https://nih.gov/x',
      'https://192.0.2.1/x',
      'not an address',
      `https://fda.gov/${'x'.repeat(600)}`,
    ]) {
      expect(code(() => referenceUrl(bad)), bad).toBe('invalid_reference');
    }
  });
});

describe('dates and ids', () => {
  const clock = () => new Date('2026-11-26T12:00:00Z');
  it('takes a year, a month or a day, real, from 1900 to today', () => {
    expect(['2018', '2018-07', '2018-07-31', '2026-11', '2026-11-26'].map((d) => contextDate(d, clock))).toEqual(['2018', '2018-07', '2018-07-31', '2026-11', '2026-11-26']);
    for (const bad of ['18', '2018-7', '2018-13', '2018-02-30', '1899', '2026-11-27', '2027', 'July 2018']) expect(code(() => contextDate(bad, clock)), bad).toBe('invalid_input');
  });

  it('tells a research entry from a regulatory one by its id', () => {
    expect(contextKindOf('rsc_0123456789ab')).toBe('research');
    expect(contextKindOf('reg_0123456789ab')).toBe('regulatory');
    expect(code(() => contextKindOf('sig_0123456789ab'))).toBe('invalid_input');
  });
});
