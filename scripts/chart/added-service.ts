/**
 * For chart-check.sh: the chart as it is after a service is added the way the
 * README's "Adding a service" says (one registry entry, one values block),
 * without adding one to the repository. Writes into <out>: registry.json (the
 * registry's JSON twin with the entry), _registry.tpl (the chart's generated
 * wiring with it) and added-values.yaml (its values block).
 *
 *   npx tsx scripts/chart/added-service.ts <out dir>
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { registry, type ServiceEntry } from '@evidence-record/registry';
import { chartRegistryTemplate } from '../registry/generate';

const out = process.argv[2];
if (!out) throw new Error('usage: added-service.ts <out dir>');

/** A service the gateway calls, with a database and internet egress (as a source monitor would). */
const added: ServiceEntry = { name: 'newcomer', entry: 'services/newcomer/src/main.ts', http: true, port: 8199, needs: { database: true, internet: true }, startsAfter: [] };
const services = [...registry.services.map((s) => (s.name === 'gateway' ? { ...s, calls: [...(s.calls ?? []), added.name] } : s)), added];

writeFileSync(join(out, 'registry.json'), JSON.stringify({ ...registry, services }, null, 2));
writeFileSync(join(out, '_registry.tpl'), chartRegistryTemplate(services));
const block = {
  replicas: 1,
  image: {},
  resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '256Mi' } },
  autoscaling: { enabled: true, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 70 },
  pdb: { maxUnavailable: 1 },
};
writeFileSync(join(out, 'added-values.yaml'), stringify({ services: { [added.name]: block } }));
