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
