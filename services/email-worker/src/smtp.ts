import net from 'node:net';
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

/** nodemailer's pool reads `maxRequeues` (lib/smtp-pool/index.js); @types/nodemailer does not declare it. */
export type SmtpPoolOptions = SMTPPool.Options & { maxRequeues?: number };

export function smtpTransportOptions(smtpUrl: string, opts: { timeoutMs: number; maxConnections: number }): SmtpPoolOptions {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  // URL keeps the brackets of an IPv6 literal; a socket address must not have them.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  return {
    pool: true,
    host,
    port,
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    maxConnections: opts.maxConnections,
    connectionTimeout: opts.timeoutMs,
    greetingTimeout: opts.timeoutMs,
    socketTimeout: opts.timeoutMs,
    // A connection the server closes before its greeting would otherwise put the email back in the pool's queue
    // without end, so the send could outlive its claim's lease (and be sent again by another worker); failing it
    // lets the outage backoff retry it instead.
    maxRequeues: 0,
    getSocket: noDelaySocket(host, port),
  };
}

/**
 * nodemailer writes one message in several small writes (envelope commands,
 * headers, body, the closing dot) and never sets TCP_NODELAY, so Nagle holds
 * the last write until the server's delayed ACK: ~40 ms per email on a pooled
 * connection, which capped a worker at ~80 emails/s.
 *
 * The socket is handed over while still connecting, through the callback's
 * success path only. A connect failure then reaches nodemailer as an error
 * of its own connection (ESOCKET, or ETIMEDOUT from the greeting timeout),
 * which closes the pool slot. Reporting it through the callback instead
 * would leave the slot in the pool for good: after `maxConnections` refused
 * connects every later send would wait forever, and an SMTP outage would
 * never end for this worker (test/outages.test.ts, "SMTP down").
 */
function noDelaySocket(host: string, port: number): NonNullable<SMTPPool.Options['getSocket']> {
  return (_options, callback) => callback(null, { connection: net.connect({ host, port, noDelay: true, keepAlive: true }) });
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

/** nodemailer's connection-level codes, and the system codes a socket error can carry when nodemailer passes it through unchanged. */
const connectionCodes = new Set([
  'ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS',
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN',
]);

const closedBeforeGreeting = 'Reached maximum number of retries after connection was closed';

/** Sorts a nodemailer error by what retrying can achieve. */
export function classifySmtpFailure(err: unknown): SmtpFailure {
  const e = err as { responseCode?: number; code?: string; response?: string; message?: string };
  const code = typeof e?.responseCode === 'number' ? e.responseCode : null;
  const detail = [e?.code, code, e?.response ?? e?.message].filter((x) => x !== undefined && x !== null).join(' ');
  const message = redactCredentials(detail || String(err)).slice(0, 500);
  // No answer about this message at all, or 421 "service not available": the server, not the message, is the problem.
  // A connection the server closed before its greeting fails in the pool with this message and no code (maxRequeues: 0).
  const noAnswer = code === null && (connectionCodes.has(e?.code ?? '') || e?.message === closedBeforeGreeting);
  if (noAnswer || code === 421) return { kind: 'unavailable', message };
  if (code === null) return { kind: 'temporary', message };
  return { kind: code >= 500 && code < 600 ? 'permanent' : 'temporary', message };
}

/** SMTP errors can echo the connection URL; its password must not reach the database or the logs. */
function redactCredentials(text: string): string {
  return text.replace(/(smtps?:\/\/[^:/@\s]+):[^@\s]+@/g, '$1:[redacted]@');
}
