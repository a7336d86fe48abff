import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Keys and internal identity headers are redacted at
 * the logger so that no code path can print a secret by accident.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
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
  });
}
