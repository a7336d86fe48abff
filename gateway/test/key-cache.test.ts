import { describe, expect, it } from 'vitest';
import { waitFor } from '@evidence-record/test-support/wait';
import { KeyCache } from '../src/access/key-cache';
import { key } from './support/key-record';

describe('key cache', () => {
  it('serves from memory, evicts on invalidation, and never stores a load that raced an invalidation', async () => {
    let loads = 0;
    let release: (() => void) | null = null;
    const cache = new KeyCache(async (id) => {
      loads++;
      if (id === 'slow' && !release) await new Promise<void>((r) => (release = r));
      return key({ keyId: id });
    });
    cache.setChannelHealthy(true);
    await cache.lookup('k1');
    await cache.lookup('k1');
    expect(loads).toBe(1);
    cache.invalidate('k1');
    await cache.lookup('k1');
    expect(loads).toBe(2);
    cache.invalidate('org:org_a');
    await cache.lookup('k1');
    expect(loads).toBe(3);

    const pending = cache.lookup('slow');
    // Invalidate while the load is under way: the loader has been called and not answered.
    await waitFor('the slow load to start', () => release !== null, 1_000, 1);
    cache.invalidate('slow');
    release!();
    await pending;
    // The load that raced the invalidation was not stored: the next lookup reads again.
    await cache.lookup('slow');
    expect(loads).toBe(5);
    await cache.lookup('slow');
    expect(loads).toBe(5);
  });

  it('never answers a lookup made after an invalidation with a load that started before it', async () => {
    // The row as Postgres holds it: active until the operator revokes it.
    let revoked = false;
    const loads: Array<() => void> = [];
    const cache = new KeyCache(async (id) => {
      const read = key({ keyId: id, revoked });
      // The first load is slow (read before the revocation, answered after it); later ones answer at once.
      if (loads.length === 0) await new Promise<void>((r) => loads.push(r));
      else loads.push(() => undefined);
      return read;
    });
    cache.setChannelHealthy(true);
    const before = cache.lookup('k');
    await waitFor('the first load to read the row', () => loads.length === 1, 1_000, 1);
    revoked = true;
    cache.invalidate('k');
    const after = cache.lookup('k');
    loads[0]!();
    // The lookup that came before the revocation may see the old row; the one after it never does.
    expect((await before)?.revoked).toBe(false);
    expect((await after)?.revoked).toBe(true);
    expect(loads).toHaveLength(2);
    // And the stale load was not stored over the fresh one.
    expect((await cache.lookup('k'))?.revoked).toBe(true);
    expect(loads).toHaveLength(2);
  });

  it('trusts entries for one second only while the invalidation channel is down', async () => {
    let loads = 0;
    const cache = new KeyCache(async (id) => {
      loads++;
      return key({ keyId: id });
    });
    cache.setChannelHealthy(false);
    const t0 = Date.now();
    await cache.lookup('k', t0);
    await cache.lookup('k', t0 + 500);
    expect(loads).toBe(1);
    await cache.lookup('k', Date.now() + 1500);
    expect(loads).toBe(2);
  });
});
