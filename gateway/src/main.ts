import { configOrExit, createAccessLogger, createLogger, initTracing, startService } from '@evidence-record/platform';
import { createGateway } from './app';
import { assertChecksAllowed, loadGatewayConfig } from './config';

const config = configOrExit('gateway', () => loadGatewayConfig());
const log = createLogger('gateway', config.logLevel);
assertChecksAllowed(config);
if (!config.checks) {
  log.warn('*************************************************************************');
  log.warn('* GATEWAY_CHECKS=off: every request is forwarded without a key, rate     *');
  log.warn('* window, budget, validation or extraction score. BENCHMARK ONLY.        *');
  log.warn('*************************************************************************');
}
initTracing({ service: 'gateway', endpoint: config.otelEndpoint, exportDelayMs: config.otelExportDelayMs, log });
const gateway = await createGateway({ config, log, accessLog: createAccessLogger('gateway', config.logLevel) });
const running = await startService(gateway.app, { listener: gateway.listener, port: config.port, host: config.listenHost, log, graceMs: config.shutdownGraceMs, onShutdown: gateway.close });
// An upstream slower than its deadline is answered with 500 long before these.
running.server.requestTimeout = 60_000;
running.server.headersTimeout = 15_000;
