/**
 * Prints, as shell assignments, what scripts/stack.env.sh needs from the
 * registry: each HTTP service's <NAME>_URL on the local stack (an already set
 * variable wins) and ER_SERVICE_WAVES, the services in start waves
 * ("name:port" words; a wave per line; port "-" for a service without HTTP).
 * The gateway's port is $GATEWAY_PORT when set (the design card's fixed point).
 * ER_SIGNED_SERVICES names the services that accept only signed requests, each
 * with its own <NAME>_SIGNING_KEYS (decision 0313; up.sh makes one key each).
 */
import { services, startWaves, urlEnvName, verifyingServices, type ServiceEntry } from '@evidence-record/registry';

const portExpr = (s: ServiceEntry) => (s.name === 'gateway' ? '$GATEWAY_PORT' : String(s.port));
const lines: string[] = [];
const gateway = services.find((s) => s.name === 'gateway');
if (gateway) lines.push(`export GATEWAY_PORT=\${GATEWAY_PORT:-${gateway.port}}`);
for (const s of services) {
  if (!s.http) continue;
  const v = urlEnvName(s.name);
  lines.push(`export ${v}=\${${v}:-http://127.0.0.1:${portExpr(s)}}`);
}
const waves = startWaves(services.map((s) => s.name)).map((w) =>
  w.map((n) => {
    const s = services.find((x) => x.name === n)!;
    return `${n}:${s.http ? portExpr(s) : '-'}`;
  }),
);
lines.push(`ER_SERVICE_WAVES="${waves.map((w) => w.join(' ')).join('\n')}"`);
lines.push(`ER_SIGNED_SERVICES="${verifyingServices().join(' ')}"`);
console.log(lines.join('\n'));
