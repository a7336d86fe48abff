#!/usr/bin/env node
// Asserts what the evidence-record chart promises, on one `helm template`
// output and the values file it was rendered with:
//
//   * every service of the registry (services/registry/src/registry.ts) has a Deployment (probes on /readyz and /healthz, a
//     startupProbe, hardened securityContext, /tmp emptyDir, preStop drain,
//     `node dist/<service>.mjs`, its port), a Service, a PDB, and an HPA
//     exactly when its autoscaling is enabled;
//   * each service gets the environment it needs, secrets only through
//     secretKeyRef;
//   * the migrations Job is a pre-install/pre-upgrade hook, equally hardened;
//   * NetworkPolicies exist exactly when networkPolicy.enabled, and then
//     default-deny, admit backends only from the gateway (the gateway also
//     from mcp) and open DNS;
//   * the Ingress and ServiceMonitor follow their switches;
//   * each engine's topology (issue 24) reaches the pods and the policies:
//     REDIS_MODE, every Redis node (or Sentinel) in REDIS_URL and its port
//     opened; every NATS server in NATS_URL, NATS_STREAM_REPLICAS; the read
//     replica's DATABASE_READ_URL on record, signals and ledger only, with
//     egress to it; PgBouncer's address and port for the services (never for
//     migrations) and DATABASE_NAMED_STATEMENTS=off where the pooler cannot
//     keep named statements.
//
// Usage:
//   node scripts/chart/assert-rendered.mjs --values <ci values.yaml> [--values more.yaml] \
//     --rendered <helm template output> [--release er] [--require-all-hpa] \
//     [--service-monitor-api] [--registry <registry.json>] [--chart <chart dir>]
// Exit 0 when every assertion holds, 1 otherwise.

import { readFileSync } from 'node:fs';
import console from 'node:console';
import process from 'node:process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse } from 'yaml';

const chartDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../charts/evidence-record');

// The registry's JSON twin; --registry names another (chart-check.sh renders a chart with one more service).
const registryArg = process.argv.indexOf('--registry');
const registryFile = registryArg > 0 ? process.argv[registryArg + 1] : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../services/registry/registry.json');
const registry = JSON.parse(readFileSync(registryFile, 'utf8')).services;
const urlEnv = (name) => `${name.toUpperCase().replace(/-/g, '_')}_URL`;
const signingEnv = (name) => `${name.toUpperCase().replace(/-/g, '_')}_SIGNING_KEYS`;
/** Services that accept only signed requests (decision 0313), each with keys of its own. */
const VERIFYING = registry.filter((s) => s.needs?.internalSigning === 'verify').map((s) => s.name);
/** Whose signing keys a service gets: its own when it verifies; the signer those of the services it calls that verify. */
const signingKeysOf = (s) => (s.needs?.internalSigning === 'verify' ? [s.name] : s.needs?.internalSigning === 'sign' ? (s.calls ?? []).filter((c) => VERIFYING.includes(c)) : []);
/**
 * What each service of the registry must get: env vars follow from its needs
 * and calls; a service that needs no database must not get DATABASE_URL.
 * Only the gateway's and the MCP service's own settings are listed by hand.
 */
const OWN_ENV = { gateway: ['GATEWAY_PORT', 'MCP_ALLOWED_HOSTS', 'MCP_ALLOWED_ORIGINS'], mcp: ['MCP_ALLOWED_ORIGINS', 'MCP_ALLOWED_HOSTS'] };
const SERVICES = Object.fromEntries(
  registry.map((s) => {
    const n = s.needs ?? {};
    const env = [
      ...(s.http ? ['PORT'] : []),
      ...(OWN_ENV[s.name] ?? []),
      ...(n.database ? ['DATABASE_URL'] : []),
      ...(n.redis ? ['REDIS_URL', 'REDIS_PREFIX', 'REDIS_MODE'] : []),
      ...(n.nats ? ['NATS_URL', 'NATS_PREFIX', 'NATS_STREAM_REPLICAS'] : []),
      ...(n.cursorSecret ? ['CURSOR_SECRET'] : []),
      ...signingKeysOf(s).map(signingEnv),
      ...(n.unsubscribeKey ? ['UNSUBSCRIBE_SIGNING_KEY'] : []),
      ...(n.consoleSessionSecret ? ['CONSOLE_SESSION_SECRET'] : []),
      ...(n.publicBaseUrl ? ['PUBLIC_BASE_URL'] : []),
      ...(n.smtp ? ['SMTP_URL', 'MAIL_FROM'] : []),
      ...(s.calls ?? []).map(urlEnv),
    ];
    const forbidden = [...(n.database ? [] : ['DATABASE_URL']), ...(n.smtp ? [] : ['SMTP_URL']), ...(n.cursorSecret ? [] : ['CURSOR_SECRET']), ...(n.unsubscribeKey ? [] : ['UNSUBSCRIBE_SIGNING_KEY']), 'INTERNAL_SIGNING_KEYS', ...(n.consoleSessionSecret ? [] : ['CONSOLE_SESSION_SECRET'])];
    // No pod gets another service's signing keys: a service that holds only its own can sign nothing another accepts.
    for (const other of VERIFYING) if (!signingKeysOf(s).includes(other)) forbidden.push(signingEnv(other));
    return [s.name, { port: s.port, http: s.http, env, forbidden, signingKeys: signingKeysOf(s), internet: Boolean(n.internet), database: Boolean(n.database), databaseRead: Boolean(n.databaseRead), redis: Boolean(n.redis), nats: Boolean(n.nats) }];
  }),
);
const COMMON_ENV = ['LOG_LEVEL', 'SHUTDOWN_GRACE_MS', 'LISTEN_HOST'];
/** Env vars that hold secrets: only ever from a secretKeyRef. */
const SECRET_ENV = ['CURSOR_SECRET', 'CONSOLE_SESSION_SECRET', ...VERIFYING.map(signingEnv), 'UNSUBSCRIBE_SIGNING_KEY', 'UNSUBSCRIBE_SIGNING_KEY_PREVIOUS', 'SMTP_URL', 'DATABASE_PASSWORD', 'DATABASE_READ_PASSWORD', 'REDIS_PASSWORD', 'REDIS_SENTINEL_PASSWORD'];
/** URLs that may carry credentials: a secretKeyRef, or composed from a $(..._PASSWORD) reference. */
const URL_ENV = { DATABASE_URL: 'DATABASE_PASSWORD', DATABASE_READ_URL: 'DATABASE_READ_PASSWORD', REDIS_URL: 'REDIS_PASSWORD', NATS_URL: null };
/** Who may connect to each service: the services whose registry entry calls it. */
const CALLERS = Object.fromEntries(registry.map((s) => [s.name, registry.filter((x) => x.calls?.includes(s.name)).map((x) => x.name)]));

function args() {
  const out = { values: [], release: 'er', requireAllHpa: false, serviceMonitorApi: false, chart: chartDir };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--values') out.values.push(argv[++i]);
    else if (a === '--rendered') out.rendered = argv[++i];
    else if (a === '--release') out.release = argv[++i];
    else if (a === '--require-all-hpa') out.requireAllHpa = true;
    else if (a === '--service-monitor-api') out.serviceMonitorApi = true;
    else if (a === '--registry') i++; // read above
    else if (a === '--chart') out.chart = argv[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  if (out.values.length === 0 || !out.rendered) throw new Error('--values and --rendered are required');
  return out;
}

/** Helm's merge: maps merge key by key, anything else replaces; null deletes. */
function merge(base, over) {
  if (over === undefined) return base;
  if (isMap(base) && isMap(over)) {
    const out = { ...base };
    for (const [k, v] of Object.entries(over)) {
      if (v === null) delete out[k];
      else out[k] = merge(base[k], v);
    }
    return out;
  }
  return over;
}
const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

const failures = [];
let passed = 0;
function check(ok, message) {
  if (ok) passed++;
  else failures.push(message);
  return ok;
}

function main() {
  const opt = args();
  // Merged like helm: chart defaults, then each --values file in order.
  const values = [path.join(opt.chart, 'values.yaml'), ...opt.values].reduce(
    (acc, f) => merge(acc, parse(readFileSync(f, 'utf8')) ?? {}),
    {},
  );
  const objects = parseAllDocuments(readFileSync(opt.rendered, 'utf8'))
    .map((d) => d.toJS())
    .filter((o) => o && typeof o === 'object');
  const find = (kind, name) => objects.find((o) => o.kind === kind && o.metadata?.name === name);
  const all = (kind) => objects.filter((o) => o.kind === kind);
  const prefix = values.fullnameOverride || opt.release;

  for (const [svc, facts] of Object.entries(SERVICES)) {
    const name = `${prefix}-${svc}`;
    const sv = values.services[svc];
    if (!check(sv, `${svc}: values.yaml has no services.${svc} block`)) continue;
    const port = portOf(values, svc);
    const dep = find('Deployment', name);
    if (!check(dep, `${svc}: Deployment ${name} missing`)) continue;
    const pod = dep.spec.template.spec;
    const c = pod.containers?.find((x) => x.name === svc) ?? pod.containers?.[0];
    if (!check(c, `${svc}: Deployment has no container`)) continue;

    if (facts.http) {
      check(c.readinessProbe?.httpGet?.path === '/readyz', `${svc}: readinessProbe must GET /readyz`);
      check(c.livenessProbe?.httpGet?.path === '/healthz', `${svc}: livenessProbe must GET /healthz`);
      check(c.startupProbe?.httpGet, `${svc}: startupProbe missing`);
      for (const p of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
        check(c[p]?.httpGet?.port === 'http' || c[p]?.httpGet?.port === port, `${svc}: ${p} must target the service port`);
      }
      check(c.ports?.some((p) => p.name === 'http' && p.containerPort === port), `${svc}: containerPort http=${port} missing`);
    } else {
      check(!c.ports?.length && !c.readinessProbe && !c.livenessProbe && !c.startupProbe, `${svc}: serves no HTTP, so no ports or HTTP probes`);
    }
    check(JSON.stringify([...(c.command ?? []), ...(c.args ?? [])]) === JSON.stringify(['node', `dist/${svc}.mjs`]), `${svc}: must run node dist/${svc}.mjs`);
    check(c.lifecycle?.preStop, `${svc}: preStop hook missing`);
    check(Number.isInteger(pod.terminationGracePeriodSeconds), `${svc}: terminationGracePeriodSeconds missing`);
    check(pod.automountServiceAccountToken === false, `${svc}: automountServiceAccountToken must be false`);
    checkHardened(svc, pod, c);

    // Environment
    const env = new Map((c.env ?? []).map((e) => [e.name, e]));
    for (const n of [...COMMON_ENV, ...facts.env]) check(env.has(n), `${svc}: env ${n} missing`);
    for (const n of facts.forbidden ?? []) check(!env.has(n), `${svc}: env ${n} must not be set`);
    if (facts.http) check(env.get('PORT')?.value === String(port), `${svc}: PORT must be ${port}`);
    for (const n of SECRET_ENV) {
      if (env.has(n)) check(env.get(n).valueFrom?.secretKeyRef?.name && !('value' in env.get(n)), `${svc}: ${n} must come from a secretKeyRef`);
    }
    // Each service's keys are one entry of the signing Secret, named after it: the gateway and that service read the same.
    for (const owner of facts.signingKeys ?? []) {
      const ref = env.get(signingEnv(owner))?.valueFrom?.secretKeyRef;
      check(ref?.name === (values.internalSigning?.existingSecret || `${prefix}-internal-signing`) && ref?.key === owner, `${svc}: ${signingEnv(owner)} must come from entry ${owner} of the signing Secret`);
    }
    for (const [n, pw] of Object.entries(URL_ENV)) {
      const e = env.get(n);
      if (!e || e.valueFrom?.secretKeyRef) continue;
      check(!/:\/\/[^/@]*:[^/@$]+@/.test(e.value ?? ''), `${svc}: ${n} inlines a password`);
      if (pw && (e.value ?? '').includes('@')) {
        check(e.value.includes(`$(${pw})`) && env.has(pw), `${svc}: ${n} must reference $(${pw}) from a secret`);
        const order = [...env.keys()];
        check(order.indexOf(pw) < order.indexOf(n), `${svc}: ${pw} must be defined before ${n}`);
      }
    }
    checkEngineEnv(svc, facts, values, env);
    for (const callee of registry.find((r) => r.name === svc).calls ?? []) {
      const want = `http://${prefix}-${callee}:${portOf(values, callee)}`;
      check(env.get(urlEnv(callee))?.value === want, `${svc}: ${urlEnv(callee)} must be ${want}`);
    }

    // Service
    const s = find('Service', name);
    if (!facts.http) check(!s, `${svc}: serves no HTTP, so no Service`);
    else if (check(s, `${svc}: Service ${name} missing`)) {
      check(s.spec.ports?.some((p) => p.port === port), `${svc}: Service must expose port ${port}`);
      check(matches(s.spec.selector, dep.spec.template.metadata.labels), `${svc}: Service selector does not match the pods`);
    }

    // PDB
    const pdb = find('PodDisruptionBudget', name);
    if (check(pdb, `${svc}: PodDisruptionBudget ${name} missing`)) {
      check(matches(pdb.spec.selector?.matchLabels, dep.spec.template.metadata.labels), `${svc}: PDB selector does not match the pods`);
    }

    // HPA
    const hpa = find('HorizontalPodAutoscaler', name);
    const wantHpa = Boolean(sv.autoscaling?.enabled);
    if (opt.requireAllHpa) check(wantHpa, `${svc}: autoscaling must be enabled in ${opt.values.join(' + ')}`);
    if (wantHpa) {
      if (check(hpa, `${svc}: HorizontalPodAutoscaler ${name} missing`)) {
        check(hpa.apiVersion === 'autoscaling/v2', `${svc}: HPA must be autoscaling/v2`);
        check(hpa.spec.scaleTargetRef?.kind === 'Deployment' && hpa.spec.scaleTargetRef?.name === name, `${svc}: HPA must target Deployment ${name}`);
        check(hpa.spec.minReplicas === sv.autoscaling.minReplicas && hpa.spec.maxReplicas === sv.autoscaling.maxReplicas, `${svc}: HPA min/max must follow values`);
        check(hpa.spec.metrics?.some((m) => m.resource?.name === 'cpu' && m.resource?.target?.averageUtilization === sv.autoscaling.targetCPUUtilizationPercentage), `${svc}: HPA CPU target must follow values`);
        check(dep.spec.replicas === undefined, `${svc}: Deployment must leave replicas to the HPA`);
      }
    } else {
      check(!hpa, `${svc}: HPA rendered although autoscaling is disabled`);
      check(dep.spec.replicas === sv.replicas, `${svc}: Deployment replicas must be ${sv.replicas}`);
    }
  }

  for (const svc of Object.keys(values.services ?? {})) check(SERVICES[svc], `services.${svc}: not in services/registry/src/registry.ts`);

  // Migrations hook
  const job = find('Job', `${prefix}-migrate`);
  if (values.migrations?.enabled === false) check(!job, 'migrations: Job rendered although migrations.enabled is false');
  else if (check(job, 'migrations: Job missing')) {
    const a = job.metadata.annotations ?? {};
    check(a['helm.sh/hook'] === 'pre-install,pre-upgrade', 'migrations: must be a pre-install,pre-upgrade hook');
    check(a['helm.sh/hook-weight'] !== undefined, 'migrations: hook-weight missing');
    check(a['helm.sh/hook-delete-policy']?.includes('before-hook-creation'), 'migrations: delete policy before-hook-creation missing');
    const pod = job.spec.template.spec;
    const c = pod.containers[0];
    check(JSON.stringify(c.command) === JSON.stringify(['node', 'dist/migrate.mjs']), 'migrations: must run node dist/migrate.mjs');
    check(c.env?.some((e) => e.name === 'DATABASE_URL'), 'migrations: DATABASE_URL missing');
    // The migrator holds a session-level advisory lock: it reaches the primary itself, never PgBouncer.
    const migrateEnv = new Map((c.env ?? []).map((e) => [e.name, e]));
    const db = values.externalDatabase;
    if (db.urlKey) check(migrateEnv.get('DATABASE_URL')?.valueFrom?.secretKeyRef?.key === db.urlKey, `migrations: DATABASE_URL must come from key ${db.urlKey}`);
    else check((migrateEnv.get('DATABASE_URL')?.value ?? '').includes(`@${db.host}:${db.port}/`), `migrations: DATABASE_URL must reach the primary ${db.host}:${db.port}`);
    check(!migrateEnv.has('DATABASE_NAMED_STATEMENTS') && !migrateEnv.has('DATABASE_READ_URL'), 'migrations: no pooler or replica settings');
    checkHardened('migrations', pod, c);
  }

  // Secrets: only the generated cursor, unsubscribe-key, internal-signing and console-session secrets may be rendered, each unless an existing one is named.
  const secrets = all('Secret').map((x) => x.metadata.name).sort();
  const expectedSecrets = [
    ...(values.cursorSecret?.existingSecret ? [] : [`${prefix}-cursor`]),
    ...(values.consoleSessionSecret?.existingSecret ? [] : [`${prefix}-console-session`]),
    ...(values.unsubscribeSigningKey?.existingSecret ? [] : [`${prefix}-unsubscribe`]),
    ...(values.internalSigning?.existingSecret ? [] : [`${prefix}-internal-signing`]),
  ].sort();
  check(JSON.stringify(secrets) === JSON.stringify(expectedSecrets), `secrets: expected [${expectedSecrets.join(', ')}], got [${secrets.join(', ')}]`);
  // The generated signing Secret: one key per verifying service, and nothing else.
  const signing = find('Secret', `${prefix}-internal-signing`);
  if (signing) check(JSON.stringify(Object.keys(signing.data ?? {}).sort()) === JSON.stringify([...VERIFYING].sort()), `internal-signing: entries ${Object.keys(signing.data ?? {}).join(', ')}, expected ${VERIFYING.join(', ')}`);
  const envOf = (name) => (find('Deployment', `${prefix}-${name}`)?.spec.template.spec.containers ?? []).flatMap((c) => c.env ?? []);
  // The console's session secret: from its own Secret (generated once and kept by helm, or the one named), never inlined, on the console only.
  const consoleSessionSecretName = values.consoleSessionSecret?.existingSecret || `${prefix}-console-session`;
  const sessionRefs = Object.keys(SERVICES).flatMap((name) => envOf(name).filter((e) => e.name === 'CONSOLE_SESSION_SECRET').map((e) => [name, e.valueFrom?.secretKeyRef]));
  check(
    sessionRefs.length > 0 && sessionRefs.every(([, ref]) => ref?.name === consoleSessionSecretName && ref?.key === (values.consoleSessionSecret?.key ?? 'console-session-secret')),
    `CONSOLE_SESSION_SECRET: must come from Secret ${consoleSessionSecretName}, got ${JSON.stringify(sessionRefs)}`,
  );
  if (!values.consoleSessionSecret?.existingSecret) {
    const generated = find('Secret', `${prefix}-console-session`);
    const value = generated?.data?.[values.consoleSessionSecret?.key ?? 'console-session-secret'];
    check(Boolean(value) && Buffer.from(value, 'base64').length >= 32, 'console session secret: the generated Secret holds no value of 32+ characters');
    check(generated?.metadata?.annotations?.['helm.sh/resource-policy'] === 'keep', 'console session secret: the generated Secret must carry helm.sh/resource-policy: keep (an uninstall must not sign everyone out with a new key)');
  }
  // The previous unsubscribe key (a rotation) reaches the gateway only, which verifies; the worker signs with the current one.
  const previousTo = Object.keys(SERVICES).filter((name) => envOf(name).some((e) => e.name === 'UNSUBSCRIBE_SIGNING_KEY_PREVIOUS'));
  check(JSON.stringify(previousTo) === JSON.stringify(values.unsubscribeSigningKey?.previousKey ? ['gateway'] : []), `UNSUBSCRIBE_SIGNING_KEY_PREVIOUS: on ${previousTo.join(', ') || 'nothing'}`);

  checkNetworkPolicies(values, all('NetworkPolicy'), prefix);

  const ingress = all('Ingress');
  if (values.ingress?.enabled) {
    if (check(ingress.length === 1, 'ingress: one Ingress expected')) {
      const backends = ingress[0].spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service.name));
      check(backends.every((b) => b === `${prefix}-gateway`), 'ingress: must route only to the gateway');
    }
  } else check(ingress.length === 0, 'ingress: none expected (ingress.enabled is false)');

  const sm = all('ServiceMonitor');
  const wantSm = Boolean(values.metrics?.serviceMonitor?.enabled) && opt.serviceMonitorApi;
  check(sm.length === (wantSm ? 1 : 0), `servicemonitor: ${wantSm ? 'one' : 'none'} expected, got ${sm.length}`);

  const label = `${opt.values.map((f) => path.basename(f)).join(' + ')}${opt.serviceMonitorApi ? ' (+ServiceMonitor API)' : ''}`;
  for (const f of failures) console.log(`  FAIL ${label}: ${f}`);
  console.log(`assertions ${label}: ${passed} passed, ${failures.length} failed`);
  process.exit(failures.length === 0 ? 0 : 1);
}

/** A service's port: its values block may override the registry's. */
function portOf(values, svc) {
  return values.services?.[svc]?.port ?? SERVICES[svc].port;
}

function checkHardened(who, pod, c) {
  const psc = pod.securityContext ?? {};
  const sc = c.securityContext ?? {};
  const eff = (k) => (sc[k] !== undefined ? sc[k] : psc[k]);
  check(eff('runAsNonRoot') === true, `${who}: runAsNonRoot must be true`);
  check(eff('runAsUser') === 10001, `${who}: runAsUser must be 10001`);
  check(sc.readOnlyRootFilesystem === true, `${who}: readOnlyRootFilesystem must be true`);
  check(sc.allowPrivilegeEscalation === false, `${who}: allowPrivilegeEscalation must be false`);
  check(sc.privileged !== true, `${who}: must not be privileged`);
  check(sc.capabilities?.drop?.includes('ALL') && !(sc.capabilities?.add?.length > 0), `${who}: capabilities must drop ALL and add none`);
  check(eff('seccompProfile')?.type === 'RuntimeDefault', `${who}: seccompProfile must be RuntimeDefault`);
  const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
  check(tmp && pod.volumes?.some((v) => v.name === tmp.name && v.emptyDir), `${who}: /tmp must be an emptyDir`);
  check(pod.hostNetwork !== true && pod.hostPID !== true && pod.hostIPC !== true, `${who}: must not share host namespaces`);
}

function checkNetworkPolicies(values, policies, prefix) {
  if (!values.networkPolicy?.enabled) {
    check(policies.length === 0, `networkpolicy: none expected (networkPolicy.enabled is false), got ${policies.length}`);
    return;
  }
  const byName = new Map(policies.map((p) => [p.metadata.name, p]));
  const deny = byName.get(`${prefix}-default-deny`);
  if (check(deny, 'networkpolicy: default-deny missing')) {
    check(deny.spec.policyTypes?.includes('Ingress') && deny.spec.policyTypes?.includes('Egress'), 'networkpolicy: default-deny must cover Ingress and Egress');
    check(!deny.spec.ingress?.length && !deny.spec.egress?.length, 'networkpolicy: default-deny must allow nothing');
    check(deny.spec.podSelector?.matchLabels?.['app.kubernetes.io/instance'], 'networkpolicy: default-deny must select the release');
  }
  const componentOf = (peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/component'];
  for (const svc of Object.keys(SERVICES)) {
    const p = byName.get(`${prefix}-${svc}`);
    if (!check(p, `networkpolicy: ${prefix}-${svc} missing`)) continue;
    check(p.spec.podSelector?.matchLabels?.['app.kubernetes.io/component'] === svc, `networkpolicy ${svc}: must select only ${svc} pods`);
    check(p.spec.policyTypes?.includes('Ingress') && p.spec.policyTypes?.includes('Egress'), `networkpolicy ${svc}: must cover Ingress and Egress`);
    const ingress = p.spec.ingress ?? [];
    const fromComponents = ingress.flatMap((r) => (r.from ?? []).map(componentOf)).filter(Boolean);
    const callers = CALLERS[svc];
    check(callers.every((x) => fromComponents.includes(x)), `networkpolicy ${svc}: must admit ${callers.join(', ') || 'no callers'}`);
    check(fromComponents.every((x) => callers.includes(x)), `networkpolicy ${svc}: admits unexpected components ${fromComponents.filter((x) => !callers.includes(x)).join(', ')}`);
    if (svc !== 'gateway') {
      // A backend rule without `from` would admit the whole cluster. Only the
      // metrics rule may use non-pod peers, and only when configured.
      const open = ingress.filter((r) => !r.from || r.from.length === 0);
      const metricsOpen = values.networkPolicy.metrics?.enabled && !(values.networkPolicy.metrics.from?.length > 0);
      check(open.length === 0 || (metricsOpen && open.length === 1), `networkpolicy ${svc}: an ingress rule admits any source`);
    }
    if (values.networkPolicy.metrics?.enabled && SERVICES[svc].http) {
      check(ingress.some((r) => (r.from ?? []).some((f) => f.namespaceSelector) || !r.from), `networkpolicy ${svc}: no metrics ingress for Prometheus`);
    }
    const egress = p.spec.egress ?? [];
    const hasPort = (port, proto) => egress.some((r) => (r.ports ?? []).some((x) => x.port === port && (x.protocol ?? 'TCP') === proto));
    check(hasPort(53, 'UDP') && hasPort(53, 'TCP'), `networkpolicy ${svc}: DNS egress (UDP and TCP 53) missing`);
    const eng = engines(values);
    const dbPort = eng.pooled ? eng.pgbouncer.port : values.externalDatabase.port;
    const ruleFor = (port) => egress.find((r) => (r.ports ?? []).some((x) => x.port === port));
    if (SERVICES[svc].database) {
      check(hasPort(dbPort, 'TCP'), `networkpolicy ${svc}: ${eng.pooled ? 'PgBouncer' : 'Postgres'} egress (${dbPort}) missing`);
      if (eng.pooled && values.externalDatabase.port !== dbPort && !(SERVICES[svc].databaseRead && eng.replica?.port === values.externalDatabase.port)) {
        check(!hasPort(values.externalDatabase.port, 'TCP'), `networkpolicy ${svc}: goes through PgBouncer, so no egress to the primary's port`);
      }
      if (eng.pooled) check(canon(ruleFor(dbPort)?.to ?? []) === canon(values.networkPolicy.egress.pgbouncer?.to ?? []), `networkpolicy ${svc}: PgBouncer egress must go to networkPolicy.egress.pgbouncer.to`);
    } else check(!hasPort(values.externalDatabase.port, 'TCP'), `networkpolicy ${svc}: Postgres egress not needed`);
    if (SERVICES[svc].databaseRead && eng.replica) {
      check(hasPort(eng.replica.port, 'TCP'), `networkpolicy ${svc}: read replica egress (${eng.replica.port}) missing`);
      check(egress.some((r) => (r.ports ?? []).some((x) => x.port === eng.replica.port) && canon(r.to ?? []) === canon(values.networkPolicy.egress.readReplica?.to ?? [])), `networkpolicy ${svc}: read replica egress must go to networkPolicy.egress.readReplica.to`);
    }
    if (SERVICES[svc].redis) for (const port of eng.redisPorts) check(hasPort(port, 'TCP'), `networkpolicy ${svc}: Redis egress to port ${port} missing`);
    if (SERVICES[svc].nats) for (const port of eng.natsPorts) check(hasPort(port, 'TCP'), `networkpolicy ${svc}: NATS egress to port ${port} missing`);
    // A Redis Cluster's bus (node port + 10000) is for the nodes among themselves: never opened to a client.
    if (SERVICES[svc].redis && eng.redisMode === 'cluster') for (const port of eng.redisPorts) check(!hasPort(port + 10000, 'TCP'), `networkpolicy ${svc}: the cluster bus port ${port + 10000} must not be opened`);
    // The internet rule: the configured ports to 0.0.0.0/0 minus every private range, only for services that need it.
    const want = values.networkPolicy.egress.internet;
    const internetRules = egress.filter((r) => (r.to ?? []).some((t) => t.ipBlock?.cidr === '0.0.0.0/0') && (r.ports ?? []).some((p) => want.ports.includes(p.port)));
    if (SERVICES[svc].internet) {
      check(internetRules.length === 1, `networkpolicy ${svc}: one internet egress rule expected, got ${internetRules.length}`);
      const r = internetRules[0];
      if (r) {
        check(want.ports.every((x) => r.ports?.some((p) => p.port === x)) && r.ports.length === want.ports.length, `networkpolicy ${svc}: internet egress must open exactly ${want.ports.join(', ')}`);
        const v4 = r.to.find((t) => t.ipBlock?.cidr === '0.0.0.0/0');
        for (const cidr of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']) check(v4.ipBlock.except?.includes(cidr), `networkpolicy ${svc}: internet egress must except ${cidr}`);
      }
    } else {
      check(internetRules.length === 0, `networkpolicy ${svc}: internet egress not needed`);
    }
    if (SERVICES[svc].env.includes('SMTP_URL')) check(values.smtp.ports.every((x) => hasPort(x, 'TCP')), `networkpolicy ${svc}: SMTP egress missing`);
    else check(!values.smtp.ports.some((x) => hasPort(x, 'TCP')), `networkpolicy ${svc}: SMTP egress not needed`);
  }
  if (values.migrations?.enabled !== false && check(byName.has(`${prefix}-migrate`), 'networkpolicy: migrate policy missing')) {
    const egress = byName.get(`${prefix}-migrate`).spec.egress ?? [];
    check(egress.some((r) => (r.ports ?? []).some((x) => x.port === values.externalDatabase.port)), 'networkpolicy migrate: egress to the Postgres primary missing');
    const eng = engines(values);
    if (eng.pooled && eng.pgbouncer.port !== values.externalDatabase.port) check(!egress.some((r) => (r.ports ?? []).some((x) => x.port === eng.pgbouncer.port)), 'networkpolicy migrate: no egress to PgBouncer');
  }
}

/** JSON with every object's keys sorted: helm's toYaml sorts them, a values file need not. */
function canon(v) {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (isMap(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** What the values say about each engine's topology (the chart's defaults filled in as its helpers do). */
function engines(values) {
  const db = values.externalDatabase ?? {};
  const pgbouncer = db.pgbouncer ?? {};
  const replica = db.readReplica?.enabled ? db.readReplica : null;
  const r = values.externalRedis ?? {};
  const redisMode = r.mode ?? 'standalone';
  const defaultRedisPort = redisMode === 'sentinel' ? 26379 : 6379;
  const redisNodes = r.nodes?.length ? r.nodes.map((x) => `${x.host}:${x.port ?? defaultRedisPort}`) : [`${r.host}:${r.port}`];
  const redisPorts = [...new Set([...(r.nodes?.length ? r.nodes.map((x) => x.port ?? defaultRedisPort) : [r.port]), ...(redisMode === 'sentinel' ? (r.sentinel?.dataPorts ?? [6379]) : [])])];
  const n = values.externalNats ?? {};
  const natsServers = n.servers?.length ? n.servers.map((x) => `${x.host}:${x.port ?? 4222}`) : [`${n.host}:${n.port}`];
  const natsPorts = [...new Set(natsServers.map((x) => Number(x.slice(x.lastIndexOf(':') + 1))))];
  const pooled = Boolean(pgbouncer.enabled);
  const namedStatementsOff = pooled && (pgbouncer.poolMode ?? 'transaction') === 'transaction' && !pgbouncer.preparedStatements;
  return { pooled, pgbouncer, replica, redisMode, redisNodes, redisPorts, natsServers, natsPorts, namedStatementsOff };
}

/** One service's engine settings: the variables its wiring and the values call for, and nothing else. */
function checkEngineEnv(svc, facts, values, env) {
  const eng = engines(values);
  const db = values.externalDatabase;
  if (facts.database) {
    const url = env.get('DATABASE_URL');
    if (eng.pooled && eng.pgbouncer.urlKey) check(url?.valueFrom?.secretKeyRef?.key === eng.pgbouncer.urlKey, `${svc}: DATABASE_URL must come from PgBouncer's key ${eng.pgbouncer.urlKey}`);
    else if (eng.pooled) check((url?.value ?? '').includes(`@${eng.pgbouncer.host}:${eng.pgbouncer.port}/`), `${svc}: DATABASE_URL must go through PgBouncer ${eng.pgbouncer.host}:${eng.pgbouncer.port}`);
    else if (!db.urlKey) check((url?.value ?? '').includes(`@${db.host}:${db.port}/`), `${svc}: DATABASE_URL must reach ${db.host}:${db.port}`);
    if (eng.namedStatementsOff) check(env.get('DATABASE_NAMED_STATEMENTS')?.value === 'off', `${svc}: DATABASE_NAMED_STATEMENTS must be off behind PgBouncer in transaction mode`);
    else check(!env.has('DATABASE_NAMED_STATEMENTS'), `${svc}: DATABASE_NAMED_STATEMENTS must not be set (no transaction-mode pooler, or one that keeps named statements)`);
  }
  if (facts.databaseRead && eng.replica) {
    const read = env.get('DATABASE_READ_URL');
    if (check(read, `${svc}: DATABASE_READ_URL missing (a read replica is configured)`)) {
      if (eng.replica.urlKey) check(read.valueFrom?.secretKeyRef?.key === eng.replica.urlKey && read.valueFrom.secretKeyRef.name === (eng.replica.existingSecret || db.existingSecret), `${svc}: DATABASE_READ_URL must come from key ${eng.replica.urlKey}`);
      else {
        check((read.value ?? '').includes(`@${eng.replica.host}:${eng.replica.port}/`), `${svc}: DATABASE_READ_URL must reach ${eng.replica.host}:${eng.replica.port}`);
        check(env.get('DATABASE_READ_PASSWORD')?.valueFrom?.secretKeyRef?.name === (eng.replica.existingSecret || db.existingSecret), `${svc}: DATABASE_READ_PASSWORD from the wrong Secret`);
      }
    }
  } else check(!env.has('DATABASE_READ_URL'), `${svc}: DATABASE_READ_URL must not be set (${facts.databaseRead ? 'no read replica configured' : 'it reads what it writes, so only the primary'})`);
  if (facts.redis) {
    const r = values.externalRedis;
    check(env.get('REDIS_MODE')?.value === eng.redisMode, `${svc}: REDIS_MODE must be ${eng.redisMode}`);
    if (eng.redisMode === 'sentinel') check(env.get('REDIS_SENTINEL_NAME')?.value === r.sentinel.masterName, `${svc}: REDIS_SENTINEL_NAME must be ${r.sentinel.masterName}`);
    else check(!env.has('REDIS_SENTINEL_NAME'), `${svc}: REDIS_SENTINEL_NAME only with Sentinels`);
    if (r.sentinel?.passwordKey && eng.redisMode === 'sentinel') check(env.get('REDIS_SENTINEL_PASSWORD')?.valueFrom?.secretKeyRef?.key === r.sentinel.passwordKey, `${svc}: REDIS_SENTINEL_PASSWORD must come from key ${r.sentinel.passwordKey}`);
    else check(!env.has('REDIS_SENTINEL_PASSWORD'), `${svc}: REDIS_SENTINEL_PASSWORD not configured`);
    if (!r.urlKey) {
      const value = env.get('REDIS_URL')?.value ?? '';
      const listed = value.replace(/^rediss?:\/\/(?:[^@]*@)?/, '').replace(/\/\d*$/, '');
      check(listed === eng.redisNodes.join(','), `${svc}: REDIS_URL must list ${eng.redisNodes.join(',')}, got ${listed}`);
      check(value.startsWith(r.tls ? 'rediss://' : 'redis://'), `${svc}: REDIS_URL scheme`);
      if (eng.redisMode === 'cluster') check(!/\/\d+$/.test(value), `${svc}: REDIS_URL names no database on a cluster`);
    }
  }
  if (facts.nats) {
    const n = values.externalNats;
    check(env.get('NATS_STREAM_REPLICAS')?.value === String(n.streamReplicas ?? 1), `${svc}: NATS_STREAM_REPLICAS must be ${n.streamReplicas ?? 1}`);
    if (!n.existingSecret) {
      const scheme = n.tls ? 'tls' : 'nats';
      const want = eng.natsServers.map((x) => `${scheme}://${x}`).join(',');
      check(env.get('NATS_URL')?.value === want, `${svc}: NATS_URL must be ${want}, got ${env.get('NATS_URL')?.value}`);
    }
  }
}

function matches(selector, labels) {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

main();
