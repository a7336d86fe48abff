import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveCandidate } from '@evidence-record/curation';
import { candidateWithKeptEvidence, pageHarness, textOf, type PageHarness } from './support';

/** The release page (pages/release.ts): approved Signals waiting, each named by brand and product, with who it would email. */
let h: PageHarness;
let signalId = '';

beforeAll(async () => {
  h = await pageHarness();
  const { candidateId } = await candidateWithKeptEvidence(h.pool);
  signalId = (await approveCandidate(h.pool, { candidate_id: candidateId, reviewer: 'Page Reader', note: 'Both labels read line by line.' })).signal_id;
});
afterAll(async () => {
  await h?.close();
});

describe('the release page', () => {
  it('lists the approved Signal by brand and product, with its summary and a box to tick', async () => {
    const page = await h.page('/release');
    const row = new RegExp(`<tr><td><input type="checkbox" name="signal" value="${signalId}" id="pick-${signalId}"></td>[\\s\\S]*?</tr>`).exec(page.text);
    expect(row).not.toBeNull();
    const text = textOf(row![0]);
    expect(text).toContain('Ironvale Surge');
    expect(text).toContain('Page Reader');
    expect(text).toMatch(/nobody watches this product|@/);
    const { rows } = await h.pool.query<{ summary: string }>('SELECT summary FROM signals WHERE signal_id = $1', [signalId]);
    expect(text).toContain(textOf(rows[0]!.summary));
  });

  it('refuses a release with nothing ticked, and says so', async () => {
    const page = await h.page('/release');
    const csrf = /name="_csrf" value="([^"]*)"/.exec(page.text.slice(page.text.indexOf('action="/release"')))![1]!;
    const posted = await h.browser.post('/release', { _csrf: csrf });
    expect([posted.status, posted.location]).toEqual([303, '/release']);
    expect(textOf((await h.page('/release')).text)).toContain('Refused (invalid_input): tick at least one Signal to release');
  });
});
