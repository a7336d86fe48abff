import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Registry, callersOf, registry, services, startWaves, urlEnvName, type ServiceEntry } from '@evidence-record/registry';

const entry = (name: string, extra: Partial<ServiceEntry> = {}): ServiceEntry => ({ name, entry: `services/${name}/src/main.ts`, http: true, port: 9000 + name.length, ...extra });

describe('the service registry', () => {
  it('declares every service folder that has a main.ts, and each entry exists', () => {
    for (const s of services) expect(() => readFileSync(s.entry), s.entry).not.toThrow();
    for (const file of Object.values(registry.tools)) expect(() => readFileSync(file), file).not.toThrow();
  });

  it('refuses an entry with an unknown field, a duplicate, a port without HTTP, or a call to an unknown service', () => {
    const ok = { services: [entry('alpha')], tools: {} };
    expect(Registry.safeParse(ok).success).toBe(true);
    expect(Registry.safeParse({ ...ok, services: [{ ...entry('alpha'), prot: 1 }] }).success).toBe(false);
    expect(Registry.safeParse({ ...ok, services: [entry('alpha'), entry('alpha')] }).success).toBe(false);
    expect(Registry.safeParse({ ...ok, services: [entry('alpha', { http: false })] }).success).toBe(false);
    expect(Registry.safeParse({ ...ok, services: [entry('alpha', { calls: ['beta'] })] }).success).toBe(false);
    expect(Registry.safeParse({ ...ok, services: [entry('alpha', { calls: ['beta'] }), { name: 'beta', entry: 'b.ts', http: false }] }).success).toBe(false);
  });

  it('orders starts by startsAfter, ignoring services that are not started, and refuses a cycle', () => {
    expect(startWaves(['mcp', 'gateway', 'record'])).toEqual([['record'], ['gateway'], ['mcp']]);
    expect(startWaves(['mcp'])).toEqual([['mcp']]);
    const all = services.map((s) => s.name);
    const waves = startWaves(all);
    expect(waves.flat().sort()).toEqual([...all].sort());
    const cyclic = [entry('aa', { startsAfter: ['bb'] }), entry('bb', { startsAfter: ['aa'] })];
    expect(() => startWaves(['aa', 'bb'], cyclic)).toThrow(/cycle/);
  });

  it('derives callers from calls and names URL variables after the service', () => {
    expect(callersOf('record')).toEqual(['gateway']);
    expect(callersOf('gateway')).toEqual(['mcp']);
    expect(urlEnvName('email-worker')).toBe('EMAIL_WORKER_URL');
  });

});
