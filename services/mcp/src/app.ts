import express from 'express';
import { newRequestId } from '@evidence-record/contract';
import { isDraining, requireGatewaySignature, type InternalAuth, type Logger } from '@evidence-record/platform';
import type { McpConfig } from './config';
import { mountMcpEndpoint } from './endpoint';
import { GatewayClient } from './gateway-client';
import { McpMetrics } from './metrics';
import { sendHttpRefusal } from './rpc-errors';
import { buildToolCatalogue, type ToolCatalogue } from './tools';

export interface McpAppDeps {
  log: Logger;
  /** The per-request line's logger (platform `createAccessLogger`); absent, `log` takes it. */
  accessLog?: Logger;
  metrics?: McpMetrics;
  gateway?: GatewayClient;
  catalogue?: ToolCatalogue;
  /** The gateway's signing keys: /mcp answers only requests the gateway forwarded (decision 0313). In-process tests leave them out. */
  internalAuth?: InternalAuth;
}

export interface McpApp {
  app: express.Express;
  metrics: McpMetrics;
  gateway: GatewayClient;
  catalogue: ToolCatalogue;
  /** Readiness turns false when shutdown starts (platform startService does this on SIGTERM). */
  setDraining: () => void;
}

/**
 * The MCP service: POST /mcp plus the operational endpoints every service
 * has. It holds no data and no connection but the kept-alive one to the
 * gateway, so readiness means "not shutting down": gating it on the
 * gateway, its only caller, would only add a start-up loop.
 */
export function createMcpApp(config: McpConfig, deps: McpAppDeps): McpApp {
  const metrics = deps.metrics ?? new McpMetrics();
  const gateway = deps.gateway ?? new GatewayClient(config.GATEWAY_URL, config.GATEWAY_TIMEOUT_MS);
  const catalogue = deps.catalogue ?? buildToolCatalogue();
  metrics.base.dependsOn('gateway');

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Before anything else: only the gateway may ask (the operational paths stay open to the cluster).
  if (deps.internalAuth) app.use(requireGatewaySignature(deps.internalAuth));
  // First: the router tries routes in order, and nearly every request is a POST /mcp.
  mountMcpEndpoint(app, {
    site: { hosts: config.MCP_ALLOWED_HOSTS, origins: config.MCP_ALLOWED_ORIGINS },
    log: deps.log,
    ...(deps.accessLog ? { accessLog: deps.accessLog } : {}),
    metrics,
    protocol: { catalogue, gateway, metrics },
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: 'mcp' });
  });
  app.get('/readyz', (req, res) => {
    if (isDraining(req)) res.status(503).json({ status: 'not_ready', service: 'mcp' });
    else res.json({ status: 'ready', service: 'mcp' });
  });
  app.get('/metrics', async (_req, res) => {
    res.set('Content-Type', metrics.base.registry.contentType);
    res.end(await metrics.base.registry.metrics());
  });

  app.use((_req, res) => {
    sendHttpRefusal(res, 'not_found', newRequestId());
  });
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    deps.log.error({ err: err instanceof Error ? err.message : String(err) }, 'unhandled error');
    if (!res.headersSent) sendHttpRefusal(res, 'internal_error', newRequestId());
  });

  return { app, metrics, gateway, catalogue, setDraining: () => void (app.locals.draining = true) };
}
