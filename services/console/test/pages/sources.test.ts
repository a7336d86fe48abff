import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_NOW, pageHarness, rowsBy, textOf, type PageHarness } from './support';

/**
 * The sources page (pages/sources.ts): what each source carries and who
 * reads it, its state in words (a check a week away is scheduled, not due;
 * a source the monitor was never given is not monitored), since when an
 * unreadable source is unreadable and for how many checks, and times in UTC
 * to the minute with how far away they are.
 */
let h: PageHarness;
const ids = { scheduled: 0, overdue: 0, unreadable: 0, seeded: 0 };

beforeAll(async () => {
  h = await pageHarness();
  const q = async (sql: string) => Number((await h.pool.query<{ id: number }>(sql)).rows[0]!.id);
  ids.unreadable = await q(`SELECT source_id::int AS id FROM sources WHERE health = 'unreadable' ORDER BY source_id LIMIT 1`);
  const readable = (await h.pool.query<{ id: number }>(`SELECT source_id::int AS id FROM sources WHERE health = 'readable' ORDER BY source_id LIMIT 3`)).rows.map((r) => r.id);
  [ids.scheduled, ids.overdue, ids.seeded] = readable as [number, number, number];
  // Two sources given to the monitor: one checked a week from the page's clock, one due three hours before it.
  await h.pool.query(`UPDATE sources SET kind = 'dsld_label', next_check_due = $2::timestamptz + interval '7 days' WHERE source_id = $1`, [ids.scheduled, PAGE_NOW]);
  await h.pool.query(`UPDATE sources SET kind = 'offer_page', retailer = 'Northwind Supply', variant = 'NW-60', next_check_due = $2::timestamptz - interval '3 hours' WHERE source_id = $1`, [ids.overdue, PAGE_NOW]);
  // The unreadable source's newest check gives the monitor's reason.
  await h.pool.query(
    `UPDATE monitoring_checks SET reason = 'the page offers 2 variants at different prices: NW-30 ($39.99 unspecified); NW-60 ($64.99 list); name the one this source is with --variant'
      WHERE check_id = (SELECT check_id FROM monitoring_checks WHERE source_id = $1 AND outcome = 'unreadable' ORDER BY checked_at DESC LIMIT 1)`,
    [ids.unreadable],
  );
});
afterAll(async () => {
  await h?.close();
});

async function rows(): Promise<Map<string, string>> {
  return rowsBy((await h.page('/sources')).text, 'source');
}

describe('the sources page', () => {
  it('says a check a week away is scheduled, with when, and a check in the past is overdue', async () => {
    const shown = await rows();
    const scheduled = shown.get(String(ids.scheduled))!;
    expect(scheduled).toContain('class="state-scheduled">scheduled<');
    expect(textOf(scheduled)).toContain('in 7 d 2026-12-03 12:00 UTC');
    expect(textOf(scheduled)).toContain('the monitor, weekly');
    const overdue = shown.get(String(ids.overdue))!;
    expect(overdue).toContain('class="state-overdue">overdue<');
    expect(textOf(overdue)).toContain('due 3 h ago 2026-11-26 09:00 UTC');
  });

  it('says a seeded source is not monitored (capture imports read it), not "unscheduled"', async () => {
    const page = await h.page('/sources');
    expect(textOf(page.text)).not.toMatch(/unscheduled/);
    const seeded = rowsBy(page.text, 'source').get(String(ids.seeded))!;
    expect(seeded).toContain('class="state-not_monitored">not monitored<');
    expect(textOf(seeded)).toContain('capture imports only');
    expect(textOf(seeded)).toContain('none scheduled');
  });

  it('names what a source carries (label or offer) and where it is read from, never a raw kind', async () => {
    const page = await h.page('/sources');
    const shown = rowsBy(page.text, 'source');
    expect(textOf(shown.get(String(ids.scheduled))!)).toContain('label DSLD label');
    expect(textOf(shown.get(String(ids.overdue))!)).toContain('offer offer page · Northwind Supply');
    expect(textOf(shown.get(String(ids.seeded))!)).toMatch(/(label manufacturer page|offer retailer page)/);
    expect(textOf(page.text)).not.toMatch(/\b(dsld_label|offer_page|manufacturer|retailer)\b(?! page)/);
  });

  it('says since when an unreadable source is unreadable and for how many checks in a row, never "0"', async () => {
    const { rows: checks } = await h.pool.query<{ run: number; since: string }>(
      `SELECT (SELECT count(*)::int FROM monitoring_checks m WHERE m.source_id = s.source_id AND m.outcome = 'unreadable'
                 AND m.checked_at > (SELECT max(checked_at) FROM monitoring_checks r WHERE r.source_id = s.source_id AND r.outcome <> 'unreadable')) AS run,
              to_char(s.health_since AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS since
         FROM sources s WHERE s.source_id = $1`,
      [ids.unreadable],
    );
    expect(checks[0]!.run).toBeGreaterThan(0);
    const row = (await rows()).get(String(ids.unreadable))!;
    expect(row).toContain('class="state-unreadable">unreadable<');
    expect(textOf(row)).toContain(`since ${checks[0]!.since} ${checks[0]!.run} checks in a row`);
    expect(textOf(row)).toMatch(/unreadable \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(\d+ d( \d+ h)? ago\)/);
  });

  it('says why the newest check could not read a source, and which variant of a page an offer source reads', async () => {
    const shown = await rows();
    expect(textOf(shown.get(String(ids.unreadable))!)).toContain('the page offers 2 variants at different prices: NW-30 ($39.99 unspecified); NW-60 ($64.99 list); name the one this source is with --variant');
    expect(textOf(shown.get(String(ids.overdue))!)).toContain('variant NW-60');
    // A valid newest check has no reason to give.
    expect(textOf(shown.get(String(ids.scheduled))!)).not.toMatch(/variants at different prices/);
  });

  it('writes times in UTC to the minute, never as raw ISO timestamps, and links each address as an external link', async () => {
    const page = await h.page('/sources');
    expect(page.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    const links = [...page.text.matchAll(/<a href="(https?:[^"]*)" rel="noopener noreferrer" target="_blank" data-source-url>/g)];
    expect(links.length).toBe(rowsBy(page.text, 'source').size);
  });
});
