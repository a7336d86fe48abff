import { describe, expect, it } from 'vitest';
import { SettledToday } from '../src/limits/settled-today';

describe('SettledToday', () => {
  const answer = (over: Partial<Parameters<SettledToday['isRepeat']>[0]> = {}) => ({
    day: '2026-11-22',
    orgId: 'org_aaaaaaaaaaaa',
    keyId: 'key_one',
    kind: 'product' as const,
    limit: 15,
    entities: ['prd_aaaaaaaaaaaa'],
    observation: null,
    ...over,
  });

  it('knows a repeat only after Redis delivered it, for the same day, organisation, kind and limit', () => {
    const s = new SettledToday();
    expect(s.isRepeat(answer())).toBe(false);
    s.remember(answer({ entities: ['prd_aaaaaaaaaaaa', 'prd_bbbbbbbbbbbb'] }));
    expect(s.isRepeat(answer())).toBe(true);
    expect(s.isRepeat(answer({ entities: ['prd_bbbbbbbbbbbb', 'prd_aaaaaaaaaaaa'] }))).toBe(true);
    expect(s.isRepeat(answer({ entities: ['prd_aaaaaaaaaaaa', 'prd_cccccccccccc'] }))).toBe(false);
    expect(s.isRepeat(answer({ day: '2026-11-23' }))).toBe(false);
    expect(s.isRepeat(answer({ orgId: 'org_bbbbbbbbbbbb' }))).toBe(false);
    expect(s.isRepeat(answer({ kind: 'signal' }))).toBe(false);
    // A changed plan limit: Redis decides again.
    expect(s.isRepeat(answer({ limit: 30 }))).toBe(false);
    // A new day forgets the old one.
    s.remember(answer({ day: '2026-11-23', entities: ['prd_dddddddddddd'] }));
    expect(s.isRepeat(answer({ day: '2026-11-23' }))).toBe(false);
  });

  it('skips identifiers and windows seen by the same key, never a not-found id or a feed since', () => {
    const s = new SettledToday();
    const identifier = { kind: 'identifier' as const, value: 'resolve:alpha' };
    s.remember(answer({ observation: identifier }));
    expect(s.isRepeat(answer({ observation: identifier }))).toBe(true);
    expect(s.isRepeat(answer({ observation: identifier, keyId: 'key_two' }))).toBe(false);
    expect(s.isRepeat(answer({ observation: { kind: 'identifier', value: 'resolve:bravo' } }))).toBe(false);
    const notFound = { kind: 'not_found' as const, value: 'prd_zzzzzzzzzzzz' };
    s.remember(answer({ entities: [], observation: notFound }));
    expect(s.isRepeat(answer({ entities: [], observation: notFound }))).toBe(false);
    const since = { kind: 'since' as const, value: '2026-11-01', filter: '|||' };
    s.remember(answer({ kind: 'signal', entities: [], observation: since }));
    expect(s.isRepeat(answer({ kind: 'signal', entities: [], observation: since }))).toBe(false);
  });

  it('forgets what a key or organisation change names, everything on a flush, and skips nothing while the channel is down', () => {
    const s = new SettledToday();
    const identifier = { kind: 'identifier' as const, value: 'resolve:alpha' };
    s.remember(answer({ observation: identifier }));
    s.invalidate('key_one');
    expect(s.isRepeat(answer({ observation: identifier }))).toBe(false);
    expect(s.isRepeat(answer())).toBe(true);
    s.invalidate('org:org_aaaaaaaaaaaa');
    expect(s.isRepeat(answer())).toBe(false);
    s.remember(answer());
    s.setChannelHealthy(false);
    expect(s.isRepeat(answer())).toBe(false);
    s.setChannelHealthy(true);
    expect(s.isRepeat(answer())).toBe(true);
    s.flush();
    expect(s.isRepeat(answer())).toBe(false);
  });

  it('holds at most its bound, forgetting everything rather than growing', () => {
    const s = new SettledToday(3);
    s.remember(answer({ entities: ['prd_aaaaaaaaaaaa', 'prd_bbbbbbbbbbbb', 'prd_cccccccccccc'] }));
    expect(s.size).toBe(3);
    s.remember(answer({ entities: ['prd_dddddddddddd'] }));
    expect(s.size).toBe(1);
    expect(s.isRepeat(answer())).toBe(false);
    expect(s.isRepeat(answer({ entities: ['prd_dddddddddddd'] }))).toBe(true);
  });
});
