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
