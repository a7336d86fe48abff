import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type express from 'express';
import type { Logger } from './logger';
import { shutdownTracing } from './tracing';

/**
 * The process lifecycle of a service: listening, and draining on SIGTERM/SIGINT
 * (the capability-app framework is in capability-app.ts; an entrypoint's boot
 * sequence in entrypoint.ts).
 */

export interface RunningService {
  server: Server;
  port: number;
  /** Drains and stops (what SIGTERM does, without exiting the process). */
  close: () => Promise<void>;
}

export interface StartServiceOptions {
  port: number;
  /** Address to listen on (LISTEN_HOST): 127.0.0.1 unless told otherwise; the chart sets 0.0.0.0. */
  host?: string;
  log: Logger;
  /** The whole shutdown's budget (SHUTDOWN_GRACE_MS): past it, open requests are cut and the process moves on. */
  graceMs: number;
  /** Starts with the shutdown, beside the HTTP drain: stop consumers and loops taking new work, finish the work in hand. */
  onDrain?: () => Promise<void>;
  /** Runs once requests and onDrain are done (or the grace period is over): close pools and connections. */
  onShutdown?: () => Promise<void>;
  /** Install SIGTERM/SIGINT handlers that shut down and exit (default true; tests running in-process say false). */
  handleSignals?: boolean;
  /** Answers the requests instead of `app` (the gateway: its hot paths before express, decision 1800); `app` still learns of draining. */
  listener?: (req: IncomingMessage, res: ServerResponse) => void;
}

/** Time left after the grace period for onShutdown before the process gives up and exits 1. */
const CLOSE_MARGIN_MS = 5_000;

/**
 * Listens, and on SIGTERM/SIGINT drains: /readyz answers 503, no new
 * connections are accepted, in-flight requests finish and their answers
 * close their connections (so kept-alive clients reconnect to another
 * replica instead of holding this one open until the deadline), consumers
 * stop and settle what they hold; then pools close and the process exits.
 */
export async function startService(app: express.Express, opts: StartServiceOptions): Promise<RunningService> {
  // Not app.listen: Express 5 calls its callback on a listen error too, so a
  // port already taken would log "listening" and the process would exit 0.
  const server = createServer(opts.listener ?? app);
  const host = opts.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    opts.log.fatal({ host, port: opts.port, err: err instanceof Error ? err.message : String(err) }, 'cannot listen');
    // An entrypoint (it owns its signals) exits non-zero at once, so an orchestrator restarts it; an embedding caller decides.
    if (opts.handleSignals !== false) process.exit(1);
    throw err;
  }
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;

  // Answers not yet finished, so that shutdown can tell them to close their connection.
  let draining = false;
  const open = new Set<ServerResponse>();
  // One listener function for every answer (no closure per request).
  function onClose(this: ServerResponse): void {
    open.delete(this);
    // An answer whose headers were already out when draining began leaves an idle connection behind.
    if (draining) setImmediate(() => server.closeIdleConnections());
  }
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    open.add(res);
    res.once('close', onClose);
  });

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      draining = true;
      app.locals.draining = true;
      opts.log.info({ open_requests: open.size, grace_ms: opts.graceMs }, 'shutting down: no new connections, finishing in-flight requests');
      for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close');
      const httpDrained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const drain = opts.onDrain?.().catch((err: unknown) => opts.log.error({ err: String(err) }, 'draining failed'));
      let timer: NodeJS.Timeout | undefined;
      const graceOver = await Promise.race([
        Promise.all([httpDrained, drain]).then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), opts.graceMs))),
      ]);
      clearTimeout(timer);
      if (graceOver) {
        opts.log.warn({ open_requests: open.size }, 'grace period over: closing the remaining connections');
        server.closeAllConnections();
        await httpDrained;
      }
      if (opts.onShutdown) await opts.onShutdown();
      await shutdownTracing();
      opts.log.info('shut down');
    })();
    return closing;
  };
  if (opts.handleSignals !== false) {
    const onSignal = (signal: string) => {
      opts.log.info({ signal }, 'signal received');
      setTimeout(() => {
        opts.log.error({ grace_ms: opts.graceMs }, 'shutdown did not finish in time; exiting');
        process.exit(1);
      }, opts.graceMs + CLOSE_MARGIN_MS).unref();
      close().then(
        () => process.exit(0),
        (err: unknown) => {
          opts.log.error({ err: String(err) }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  opts.log.info({ port }, 'listening');
  return { server, port, close };
}
