import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidateWithKeptEvidence, pageHarness, textOf, type PageHarness } from './support';

/** A candidate's page (pages/candidate.ts): both sides, the evidence with openable copies and sources, the review forms. */
let h: PageHarness;
let arranged: { candidateId: number; sha256: string; sourceUrl: string };

beforeAll(async () => {
  h = await pageHarness();
  arranged = await candidateWithKeptEvidence(h.pool);
});
afterAll(async () => {
  await h?.close();
});

describe('the candidate page', () => {
  it('names the product with its brand and shows both sides with the changed lines marked', async () => {
    const page = await h.page(`/candidates/${arranged.candidateId}`);
    const text = textOf(page.text);
    expect(text).toContain(`Candidate #${arranged.candidateId}`);
    expect(text).toContain('Ironvale Surge');
    expect(page.text).toMatch(/data-diff="added">Caffeine Anhydrous: 337(\.0+)? mg</);
    expect(page.text).toMatch(/data-diff="removed">/);
    // Times read as UTC to the minute, never as raw ISO timestamps.
    expect(text).toMatch(/opened \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC by /);
    expect(page.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });

  it('links each source address as an external link that takes nothing of the console with it', async () => {
    const page = await h.page(`/candidates/${arranged.candidateId}`);
    const links = [...page.text.matchAll(/<a href="([^"]*)" rel="([^"]*)" target="_blank" data-source-url>/g)];
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const [, href, rel] of links) {
      expect(href).toMatch(/^https?:\/\//);
      expect(rel).toBe('noopener noreferrer');
    }
    expect(links.map((l) => l[1]!.replace(/&amp;/g, '&'))).toContain(arranged.sourceUrl);
  });

  it('opens the kept copy of a reading the Record keeps, and says where the others are kept', async () => {
    const page = await h.page(`/candidates/${arranged.candidateId}`);
    const evidence = page.text.slice(page.text.indexOf('<table class="evidence">'));
    expect([...evidence.matchAll(/<a href="\/evidence\/([0-9a-f]{64})"[^>]*data-preserved-copy>/g)].map((m) => m[1])).toEqual([arranged.sha256]);
    // The demo Record's readings were preserved outside the Record: their path, said as such, and no link.
    expect(textOf(evidence)).toMatch(/preserved\/[^ ]+\.html\.zst kept outside the Record: no copy to open here/);
    // The link opens the bytes (pages/evidence.ts; evidence.test.ts checks how).
    const copy = await h.browser.get(`/evidence/${arranged.sha256}`);
    expect(copy.status).toBe(200);
    expect(copy.text).toContain('<script>document.title = "ran";</script>');
  });

  it('offers the review forms with the proposed summary prefilled, and answers 404 for no such candidate', async () => {
    const page = await h.page(`/candidates/${arranged.candidateId}`);
    const proposed = /data-summary="proposed">([^<]*)</.exec(page.text)![1]!;
    expect(page.text).toContain(`<input type="text" name="summary" value="${proposed}" maxlength="400">`);
    expect(page.text).toContain(`action="/candidates/${arranged.candidateId}/approve"`);
    expect(page.text).toContain(`action="/candidates/${arranged.candidateId}/refuse"`);
    expect((await h.browser.get('/candidates/999999')).status).toBe(404);
    expect((await h.browser.get('/candidates/abc')).status).toBe(404);
  });
});
