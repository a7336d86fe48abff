import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';

/**
 * Pooled SMTP transport; a dropped connection is replaced on the next send.
 * The URL is turned into transport options here: `createTransport(url, opts)`
 * would read `opts` as default message fields, silently leaving the transport
 * unpooled (a new connection per email) and without timeouts.
 */
export function createMailer(smtpUrl: string, opts: { timeoutMs: number; maxConnections: number }): Transporter {
  return nodemailer.createTransport(smtpTransportOptions(smtpUrl, opts));
}

export function smtpTransportOptions(smtpUrl: string, opts: { timeoutMs: number; maxConnections: number }): SMTPPool.Options {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    pool: true,
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    maxConnections: opts.maxConnections,
    connectionTimeout: opts.timeoutMs,
    greetingTimeout: opts.timeoutMs,
    socketTimeout: opts.timeoutMs,
  };
}

export interface SmtpFailure {
  /**
   * unavailable: the server could not be reached or is not taking mail (an outage: retried without end, never a dead letter);
   * temporary: the server refused this message for now (4xx: retried, counts as an attempt);
   * permanent: the server refused this message for good (5xx: a dead letter at once).
   */
  kind: 'unavailable' | 'temporary' | 'permanent';
  message: string;
}

const connectionCodes = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH']);

/** Sorts a nodemailer error by what retrying can achieve. */
export function classifySmtpFailure(err: unknown): SmtpFailure {
  const e = err as { responseCode?: number; code?: string; response?: string; message?: string };
  const code = typeof e?.responseCode === 'number' ? e.responseCode : null;
  const detail = [e?.code, code, e?.response ?? e?.message].filter((x) => x !== undefined && x !== null).join(' ');
  const message = redactCredentials(detail || String(err)).slice(0, 500);
  // No answer about this message at all, or 421 "service not available": the server, not the message, is the problem.
  if ((code === null && connectionCodes.has(e?.code ?? '')) || code === 421) return { kind: 'unavailable', message };
  if (code === null) return { kind: 'temporary', message };
  return { kind: code >= 500 && code < 600 ? 'permanent' : 'temporary', message };
}

/** SMTP errors can echo the connection URL; its password must not reach the database or the logs. */
function redactCredentials(text: string): string {
  return text.replace(/(smtps?:\/\/[^:/@\s]+):[^@\s]+@/g, '$1:[redacted]@');
}
