import { describe, expect, it } from 'vitest';
import { DISCLAIMER, type ChangeSides, type LabelSide } from '@evidence-record/contract';
import { backoffMs } from '../src/backoff';
import { EmailWorkerConfigSchema } from '../src/config';
import { deliveryStep } from '../src/delivery-step';
import { renderCorrectionEmail } from '../src/correction';
import { messageIdFor, renderAlertEmail } from '../src/message';
import { classifySmtpFailure, smtpTransportOptions } from '../src/smtp';

const alert = {
  alert_id: 'alr_0123456789abcdef01234567',
  account_id: 'acc_0123456789ab',
  email: 'buyer@customers.example',
  product_id: 'prd_abcdefghijkl',
  product_name: 'Volt <Pre>',
  brand_name: 'Alert & Co',
  dimension: 'formula',
  summary: 'Beta-alanine went from 3.2 g to 1.6 g.',
  window_start: '2025-11-02',
  window_end: '2025-12-14',
  exact_change_date: null,
  released_on: '2026-01-05',
  signal_id: 'sig_abcdefghijkl',
};
const line = (declared_name: string, amount: number | null, unit: string | null, ingredient_id: string | null = null, blend: string | null = null) => ({ declared_name, amount, unit, ingredient_id, blend });
const label = (lines: LabelSide['lines']): LabelSide => ({ lines, blends: [], serving: null, off_market: false });
const change: ChangeSides = {
  dimension: 'formula',
  before: label([line('Beta-Alanine', 3.2, 'g', 'ing_beta_alanine'), line('Caffeine', 200, 'mg', 'ing_caffeine'), line('Taurine', 1, 'g', 'ing_taurine')]),
  after: label([line('Beta-Alanine', 1.6, 'g', 'ing_beta_alanine'), line('Caffeine', 200, 'mg', 'ing_caffeine'), line('L-Citrulline', null, null, 'ing_citrulline', 'Pump Blend')]),
  prices: null,
};
const unsubscribe = 'https://api.example.test/unsubscribe?token=u1.acc_0123456789ab.prd_abcdefghijkl.1790000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('the alert email', () => {
  const email = renderAlertEmail(alert, change, { publicBaseUrl: 'https://api.example.test/', mailFrom: 'Evidence Record <alerts@mail.example.test>', unsubscribeUrl: unsubscribe });
  it('names the product and the change in the subject', () => {
    expect(email.subject).toBe('Alert & Co Volt <Pre>: formula change confirmed — Beta-Alanine: 3.2 g → 1.6 g');
  });
  it('says what changed before → after, when (a window, not a date), the release, corrections, what to cite and where it went', () => {
    expect(email.text.replace(/\n/g, ' ')).toContain('for Alert & Co Volt <Pre> (prd_abcdefghijkl)');
    expect(email.text).toContain('What changed: Beta-alanine went from 3.2 g to 1.6 g.');
    expect(email.text).toContain('Before → after:\n  Beta-Alanine: 3.2 g → 1.6 g\n  L-Citrulline added (no amount declared, in Pump Blend)\n  Taurine no longer declared (was 1 g)');
    expect(email.text).not.toContain('Caffeine');
    expect(email.text).toContain('2025-11-02 to 2025-12-14');
    expect(email.text).toContain('not an exact change date');
    expect(email.text).toContain('Released on 2026-01-05.');
    expect(email.text).toContain('keeps its address and release date');
    expect(email.text).toContain('Permanent API address to cite (reading it needs an API key');
    expect(email.text).toContain('\nhttps://api.example.test/api/v1/signals/sig_abcdefghijkl\n');
    expect(email.text).toContain('Sent to buyer@customers.example (account acc_0123456789ab)');
    expect(email.text).toContain(`no API key needed):\n${unsubscribe}\n`);
    expect(email.text).toContain(DISCLAIMER.slice(0, 40));
    expect(email.messageId).toBe('<alr_0123456789abcdef01234567@mail.example.test>');
  });
  it('keeps every text line but the URLs within 76 characters, and each URL whole on its own line', () => {
    for (const l of email.text.split('\n')) {
      if (/^https?:\/\//.test(l)) expect(l).not.toContain(' ');
      else expect(l.length, l).toBeLessThanOrEqual(76);
    }
  });
  it('carries List-Unsubscribe (no mailto) and the RFC 8058 one-click header', () => {
    expect(email.headers).toEqual({ 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(email.html).toContain(`href="${unsubscribe}"`);
  });
  it('without a signing key: no unsubscribe headers, and the keyed way to stop', () => {
    const keyless = renderAlertEmail(alert, change, { publicBaseUrl: 'https://x.test', mailFrom: 'a@b.test', unsubscribeUrl: null });
    expect(keyless.headers).toEqual({});
    expect(keyless.text).toContain('unwatch_product for prd_abcdefghijkl');
  });
  it('escapes Record text in the HTML part', () => {
    expect(email.html).toContain('Alert &amp; Co Volt &lt;Pre&gt;');
    expect(email.html).not.toContain('Volt <Pre>');
  });
  it('names an exact change date only when the Record has one', () => {
    const exact = renderAlertEmail({ ...alert, exact_change_date: '2025-12-01' }, change, { publicBaseUrl: 'https://x.test', mailFrom: 'a@b.test', unsubscribeUrl: null });
    expect(exact.text).toContain('Dated to 2025-12-01');
    expect(exact.text).not.toContain('not an exact change date');
  });
  it('shows a price change as list prices and falls back to the summary in the subject', () => {
    const price = renderAlertEmail({ ...alert, dimension: 'price' }, { dimension: 'price', before: null, after: null, prices: { before: { price_cents: 3999, retailer: 'Shelfwise' }, after: null } }, { publicBaseUrl: 'https://x.test', mailFrom: 'a@b.test', unsubscribeUrl: null });
    expect(price.text).toContain('List price at Shelfwise: $39.99 → not observed');
    const none = renderAlertEmail(alert, { dimension: 'formula', before: null, after: null, prices: null }, { publicBaseUrl: 'https://x.test', mailFrom: 'a@b.test', unsubscribeUrl: null });
    expect(none.subject).toContain('— Beta-alanine went from 3.2 g to 1.6 g.');
    expect(none.text).not.toContain('Before → after');
  });
  it('gives a correction notice the same one-click unsubscribe as a release alert, and none when there is no link', () => {
    const notice = {
      alert_id: 'alr_c1',
      signal_id: 'sig_000000000001',
      product_id: 'prd_000000000001',
      product_name: 'Pump Flow',
      brand_name: 'Testbrand',
      released_on: '2026-11-02',
      kind: 'correction' as const,
      recorded_on: '2026-11-20',
      note: 'The amount was re-read: 260 mg.',
      summary_before: 'Caffeine: 200 mg → 250 mg.',
      summary_after: 'Caffeine: 200 mg → 260 mg.',
    };
    const url = 'https://x.test/unsubscribe?token=abc';
    const withLink = renderCorrectionEmail(notice, { publicBaseUrl: 'https://x.test', mailFrom: 'a@b.test', unsubscribeUrl: url });
    expect(withLink.headers).toEqual({ 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(withLink.text.split('\n')).toContain(url);
    expect(withLink.html).toContain(`href="${url}"`);
    const without = renderCorrectionEmail(notice, { publicBaseUrl: 'https://x.test', mailFrom: 'a@b.test', unsubscribeUrl: null });
    expect(without.headers).toEqual({});
    expect(without.text).not.toContain('unsubscribe');
  });
  it('derives the Message-ID from the alert id alone', () => {
    expect(messageIdFor('alr_x', 'alerts@a.test')).toBe('<alr_x@a.test>');
    expect(messageIdFor('alr_x', 'no address')).toBe('<alr_x@evidence-record.local>');
  });
});

describe('what to do with an arriving alert message', () => {
  const base = { status: 'pending' as const, watching: true, lease_live: false, lease_remaining_ms: null, signal_status: 'released' as const };
  it('only acknowledges settled alerts', () => {
    for (const status of ['sent', 'cancelled', 'dead'] as const) expect(deliveryStep({ ...base, status })).toEqual({ kind: 'done', reason: status });
  });
  it('waits out another worker’s live claim, and takes over an expired one', () => {
    expect(deliveryStep({ ...base, status: 'sending', lease_live: true, lease_remaining_ms: 3000 })).toEqual({ kind: 'wait', ms: 3500 });
    expect(deliveryStep({ ...base, status: 'sending', lease_live: false, lease_remaining_ms: 0 })).toEqual({ kind: 'claim' });
  });
  it('cancels when the account stopped watching or the Signal was withdrawn', () => {
    expect(deliveryStep({ ...base, watching: false }).kind).toBe('cancel');
    expect(deliveryStep({ ...base, signal_status: 'withdrawn' }).kind).toBe('cancel');
    expect(deliveryStep({ ...base, signal_status: 'corrected' })).toEqual({ kind: 'claim' });
  });
});

describe('SMTP failures and backoff', () => {
  it('sorts failures by what a retry can achieve', () => {
    expect(classifySmtpFailure(Object.assign(new Error('x'), { code: 'ESOCKET' })).kind).toBe('unavailable');
    expect(classifySmtpFailure(Object.assign(new Error('x'), { code: 'EMESSAGE', responseCode: 421 })).kind).toBe('unavailable');
    expect(classifySmtpFailure(Object.assign(new Error('x'), { code: 'EMESSAGE', responseCode: 451 })).kind).toBe('temporary');
    expect(classifySmtpFailure(Object.assign(new Error('x'), { code: 'EENVELOPE', responseCode: 550 })).kind).toBe('permanent');
    expect(classifySmtpFailure(Object.assign(new Error('bad address'), { code: 'EENVELOPE' })).kind).toBe('temporary');
  });
  it('treats every way of not reaching the server as an outage', () => {
    for (const code of ['ECONNREFUSED', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT']) {
      expect(classifySmtpFailure(Object.assign(new Error(`connect ${code}`), { code })).kind, code).toBe('unavailable');
    }
    // The pool's failure for a connection closed before the greeting carries no code.
    expect(classifySmtpFailure(new Error('Reached maximum number of retries after connection was closed')).kind).toBe('unavailable');
    expect(classifySmtpFailure(new Error('something else went wrong')).kind).toBe('temporary');
  });
  it('never stores SMTP credentials in an error', () => {
    const f = classifySmtpFailure(new Error('cannot reach smtp://user:hunter2@mail.test:587'));
    expect(f.message).not.toContain('hunter2');
    expect(f.message).toContain('smtp://user:[redacted]@');
  });
  it('backs off exponentially within ±20 %, capped', () => {
    expect(backoffMs(1, 1000, 60_000, () => 0.5)).toBe(1000);
    expect(backoffMs(4, 1000, 60_000, () => 0.5)).toBe(8000);
    expect(backoffMs(30, 1000, 60_000, () => 1)).toBe(60_000);
    for (let a = 1; a < 10; a++) {
      const d = backoffMs(a, 1000, 60_000);
      const nominal = Math.min(60_000, 1000 * 2 ** (a - 1));
      expect(d).toBeGreaterThanOrEqual(nominal * 0.8 - 1);
      expect(d).toBeLessThanOrEqual(Math.min(60_000, nominal * 1.2) + 1);
    }
  });
});

describe('configuration', () => {
  const required = { DATABASE_URL: 'postgres://x/y', NATS_URL: 'nats://127.0.0.1:4222' };
  it('points at the local SMTP sink by default', () => {
    const c = EmailWorkerConfigSchema.parse(required);
    expect(c).toMatchObject({ PORT: 8106, SMTP_URL: 'smtp://127.0.0.1:1025', EMAIL_CONCURRENCY: 16, EMAIL_MAX_ATTEMPTS: 8, EMAIL_WORKER_CRASH_AFTER_SEND: '0' });
  });
  it('refuses a lease shorter than a slow send', () => {
    expect(EmailWorkerConfigSchema.safeParse({ ...required, EMAIL_LEASE_MS: '30000', SMTP_TIMEOUT_MS: '20000' }).success).toBe(false);
  });
});

describe('smtpTransportOptions', () => {
  it('pools connections and applies the timeouts (a URL plus options would make them message defaults)', () => {
    const o = smtpTransportOptions('smtp://127.0.0.1:1025', { timeoutMs: 7000, maxConnections: 4 });
    expect(o).toMatchObject({ pool: true, host: '127.0.0.1', port: 1025, secure: false, maxConnections: 4, connectionTimeout: 7000, greetingTimeout: 7000, socketTimeout: 7000, maxRequeues: 0 });
    expect(o.auth).toBeUndefined();
    expect(typeof o.getSocket).toBe('function');
  });

  it('takes an IPv6 literal host without its brackets', () => {
    expect(smtpTransportOptions('smtp://[::1]:2525', { timeoutMs: 1000, maxConnections: 1 })).toMatchObject({ host: '::1', port: 2525 });
  });

  it('reads TLS and percent-encoded credentials from the URL', () => {
    const o = smtpTransportOptions('smtps://alerts%40example.org:p%40ss@mail.example.org', { timeoutMs: 1000, maxConnections: 1 });
    expect(o).toMatchObject({ secure: true, port: 465, host: 'mail.example.org', auth: { user: 'alerts@example.org', pass: 'p@ss' } });
  });
});
