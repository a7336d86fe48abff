import { describe, expect, it } from 'vitest';
import { externalUrl, fromNow, span, utcDay, utcMinute } from '../src/format';
import { sourceLink } from '../src/pages/parts';
import { sourceState } from '../src/queries/sources';

/** What the pages write of times, addresses and source states, without a database. */
describe('console formatting', () => {
  it('writes times in UTC to the minute, reads Postgres timestamp text, and keeps a bare date a date', () => {
    expect(utcMinute(new Date('2026-11-26T06:05:59.900Z'))).toBe('2026-11-26 06:05 UTC');
    expect(utcMinute('2026-11-26 00:00:00+00')).toBe('2026-11-26 00:00 UTC');
    expect(utcMinute('2026-11-26 02:00:00+02')).toBe('2026-11-26 00:00 UTC');
    expect(utcMinute('2026-11-26')).toBe('2026-11-26');
    expect(utcMinute(null)).toBe('');
    expect(utcDay(new Date('2026-11-09T07:33:00Z'))).toBe('2026-11-09');
  });

  it('says how far away a moment is, in the units that matter', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    expect(fromNow(new Date('2026-12-03T12:00:00Z'), now)).toBe('in 7 d');
    expect(fromNow(new Date('2026-11-26T09:00:00Z'), now)).toBe('3 h ago');
    expect(span(26 * 3_600_000 + 5 * 60_000)).toBe('1 d 2 h');
    expect(span(65 * 60_000)).toBe('1 h 5 min');
    expect(span(30_000)).toBe('less than a minute');
  });

  it('makes a link only of an http(s) address, and the link tells the site nothing of the console', () => {
    expect(externalUrl('javascript:alert(1)')).toBeNull();
    expect(externalUrl('data:text/html,<script>1</script>')).toBeNull();
    expect(externalUrl('not a url')).toBeNull();
    expect(sourceLink('javascript:alert(1)').value).toBe('javascript:alert(1)');
    expect(sourceLink('https://a.example/p?x=1&y="2"').value).toBe(
      '<a href="https://a.example/p?x=1&amp;y=%222%22" rel="noopener noreferrer" target="_blank" data-source-url>https://a.example/p?x=1&amp;y=&quot;2&quot;</a>',
    );
  });

  it('gives a source one state: unreadable wins, then not monitored, paused, overdue or scheduled', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    const ahead = new Date('2026-12-03T12:00:00Z');
    const behind = new Date('2026-11-26T11:59:00Z');
    expect(sourceState({ health: 'unreadable', state: 'active', next_check_due: ahead }, now)).toBe('unreadable');
    expect(sourceState({ health: 'readable', state: 'active', next_check_due: null }, now)).toBe('not_monitored');
    expect(sourceState({ health: 'readable', state: 'paused', next_check_due: behind }, now)).toBe('paused');
    expect(sourceState({ health: 'readable', state: 'active', next_check_due: behind }, now)).toBe('overdue');
    expect(sourceState({ health: 'readable', state: 'active', next_check_due: ahead }, now)).toBe('scheduled');
  });
});
