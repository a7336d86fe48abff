import nodemailer, { type Transporter } from 'nodemailer';

/** Pooled SMTP transport; a dropped connection is replaced on the next send. */
export function createMailer(smtpUrl: string, opts: { timeoutMs: number; maxConnections: number }): Transporter {
  return nodemailer.createTransport(smtpUrl, {
    pool: true,
    maxConnections: opts.maxConnections,
    connectionTimeout: opts.timeoutMs,
    greetingTimeout: opts.timeoutMs,
    socketTimeout: opts.timeoutMs,
  } as never);
}

export interface SmtpFailure {
  /** The server rejected the message for good (5xx): retrying cannot help. */
  permanent: boolean;
  message: string;
}

/** Sorts a nodemailer error into temporary (connection trouble, 4xx) or permanent (5xx). */
export function classifySmtpFailure(err: unknown): SmtpFailure {
  const e = err as { responseCode?: number; code?: string; response?: string; message?: string };
  const code = typeof e?.responseCode === 'number' ? e.responseCode : null;
  const detail = [e?.code, code, e?.response ?? e?.message].filter((x) => x !== undefined && x !== null).join(' ');
  return { permanent: code !== null && code >= 500 && code < 600, message: redactCredentials(detail || String(err)).slice(0, 500) };
}

/** SMTP errors can echo the connection URL; its password must not reach the database or the logs. */
function redactCredentials(text: string): string {
  return text.replace(/(smtps?:\/\/[^:/@\s]+):[^@\s]+@/g, '$1:[redacted]@');
}
