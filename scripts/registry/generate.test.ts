import { describe, expect, it } from 'vitest';
import { chartWiring, dockerfile, generated, workspaceDirs } from './generate';

describe('what is generated from the service registry', () => {
  it('the Dockerfile manifests stage, its EXPOSE line and the chart wiring are not stale', () => {
    for (const g of generated()) expect(g.have, `${g.path} is stale: run npx tsx scripts/registry/generate.ts`).toBe(g.want);
  });

  it('copies every workspace manifest, including one a services/* glob picks up', () => {
    const dirs = workspaceDirs();
    expect(dirs).toContain('gateway');
    expect(dirs).toContain('services/registry');
    const marked = [
      '# ---- generated (manifests) by scripts/registry/generate.ts from package.json workspaces and services/registry; do not edit ----',
      '# ---- end of generated part ----',
      '# ---- generated (expose) by scripts/registry/generate.ts from package.json workspaces and services/registry; do not edit ----',
      '# ---- end of generated part ----',
    ].join('\n');
    const out = dockerfile(marked, [...dirs, 'services/newcomer']);
    expect(out).toContain('COPY services/newcomer/package.json services/newcomer/');
    expect(out).toMatch(/^EXPOSE 8101 .*8080/m);
    expect(() => dockerfile('FROM x', dirs)).toThrow(/markers/);
  });

  it('gives the chart callers derived from calls', () => {
    const w = chartWiring();
    expect(w.record).toMatchObject({ http: true, port: 8101, database: true, callers: ['gateway'] });
    expect(w.mcp).toMatchObject({ callers: ['gateway'], calls: ['gateway'] });
    expect(w.mcp).not.toHaveProperty('database');
  });
});
