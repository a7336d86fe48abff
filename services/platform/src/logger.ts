import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Keys and internal identity headers are redacted at
 * the logger so that no code path can print a secret by accident.
 *
 * Lines are written synchronously: pino's default asynchronous stream can,
 * at process.exit, write its buffer before a write still in flight, so the
 * last lines of a shutdown (or a crash) would come out of order or be lost.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  const options = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'authorization',
        'headers.authorization',
        'headers["x-service-key"]',
        'req.headers.authorization',
        'req.headers["x-service-key"]',
        'key',
        'secret',
        '*.secret',
        'smtpUrl',
        'password',
      ],
      censor: '[redacted]',
    },
  };
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

/** Lines held before a write: about 15 access-log lines. */
const ACCESS_LOG_BUFFER_BYTES = 4096;
/** Longest an access-log line waits in the buffer on a quiet server. */
const ACCESS_LOG_FLUSH_MS = 200;

let accessDestination: ReturnType<typeof pino.destination> | null = null;

/**
 * The logger of an access log (the gateway's, the MCP service's): one line per request, written to
 * standard output in batches of about 4 KiB, and at least every 200 ms.
 *
 * A write of its own per line was one system call per request (about 2 % of
 * the gateway's CPU under load, issue 25); held, about fifteen lines leave in
 * one. The buffer is written synchronously, in order, by a timer
 * and when the process exits (a crash that ends the process included; only a
 * SIGKILL loses the last 200 ms). Its lines may reach standard output after
 * a line the service logger wrote later: each carries its own time.
 *
 * No redaction: its call sites (gateway `finish`, and the MCP service's line
 * per POST) log fixed fields (ids, method, capability, the known JSON-RPC
 * method and tool names, status, code, figures), never a header or a body.
 * Every other line goes through `createLogger`, which redacts.
 */
export function createAccessLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  if (!accessDestination) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: ACCESS_LOG_BUFFER_BYTES, periodicFlush: ACCESS_LOG_FLUSH_MS });
    process.once('exit', () => {
      try {
        destination.flushSync();
      } catch {
        // Nothing more can be said at exit.
      }
    });
    accessDestination = destination;
  }
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime }, accessDestination);
}
