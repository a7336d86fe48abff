import { Metrics, configOrExit, createLogger, createPool, databasePoolOptions, initTracing, startService } from '@evidence-record/platform';
import { createMonitor, dueBacklog, monitorMetrics, startLoop } from '@evidence-record/sources';
import { createMonitorApp } from './app';
import { loadMonitorConfig } from './config';

const config = configOrExit('monitor', () => loadMonitorConfig());
const log = createLogger('monitor', config.LOG_LEVEL);
initTracing({ service: 'monitor', endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, exportDelayMs: config.OTEL_BSP_SCHEDULE_DELAY, log });
const metrics = new Metrics('monitor').dependsOn('postgres');
const pool = createPool(config.DATABASE_URL, { applicationName: 'monitor', max: config.MONITOR_DB_CONNECTIONS, asyncCommit: true, metrics, statementTimeoutMs: 30_000, ...databasePoolOptions(config) });
const mm = monitorMetrics(metrics);
const monitor = createMonitor(pool, config, { metrics: mm, log });
log.info(
  { owner: monitor.owner, dsld_base_url: config.DSLD_BASE_URL, dsld_api_key: config.DSLD_API_KEY ? 'set' : 'unset', allow_localhost: config.MONITOR_ALLOW_LOCALHOST, allow_hosts: config.MONITOR_ALLOW_HOSTS },
  'monitor starting',
);

// The backlog gauges are refreshed when the loop finds nothing to lease and every few seconds besides.
const refreshBacklog = async () => {
  const b = await dueBacklog(pool);
  mm.dueBacklog.set(b.due);
  mm.expiredLeases.set(b.expired_leases);
};
const backlogTimer = setInterval(() => void refreshBacklog().catch(() => undefined), 5_000);
backlogTimer.unref();
const loop = startLoop(monitor, refreshBacklog);

await startService(createMonitorApp({ pool, log, metrics }), {
  port: config.PORT,
  host: config.LISTEN_HOST,
  log,
  graceMs: config.SHUTDOWN_GRACE_MS,
  // Checks in flight finish and are recorded; leased checks not yet started are given back.
  onDrain: () => loop.stop(),
  onShutdown: async () => {
    clearInterval(backlogTimer);
    await monitor.close();
    await pool.end();
  },
});
