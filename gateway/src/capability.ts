import { headers as h, presentedKey, type Capability } from '@evidence-record/contract';
import { TRACEPARENT } from '@evidence-record/platform';
import { authenticate, authorizeCapability, boundAccount } from './access/admission';
import type { KeyRecord } from './access/key-record';
import { refuse, finish, isInternalHeader, type Exchange, type GatewayContext } from './context';
import { inspectAnswer } from './http/answer';
import { readBody, sendBytes } from './http/io';
import { UpstreamError } from './http/upstream';
import { validateRequest } from './http/validate';
import { secondsToNextUtcMidnight, utcDay } from '@evidence-record/access';
import { checkRateWindows, peekRateLimitHeaders, rateLimitHeaders } from './limits/rate-windows';
import { budgetLimit, settleAnswer, type Settlement } from './limits/settle';
import { observe } from './scoring/observe';
import { SIGNAL_PAGE_CSP, prefersHtml, signalAddressPage } from './signal-address-page';

type Checked = NonNullable<GatewayContext['checked']>;

/** The full page, then at most two shorter ones (another request of the organisation may spend in between). */
const MAX_PAGE_ATTEMPTS = 3;

/**
 * The 429 of an answer the budget cannot hold, with figures that are true:
 * what is used today, what is left, and how many new entities the answer
 * would have needed (decision 0312).
 */
function budgetRefusal(kind: string, s: Settlement, now: number): { retryAfterSeconds: number; details: Record<string, unknown>; message: string } {
  const limit = s.limit ?? 0;
  const remaining = Math.max(0, limit - s.used);
  const plural = (n: number) => `${kind}${n === 1 ? '' : 's'}`;
  return {
    retryAfterSeconds: secondsToNextUtcMidnight(now),
    details: { budget: kind, limit, used: s.used, remaining, needed: s.fresh },
    message:
      remaining === 0
        ? `The organization's daily ${kind} budget is spent: ${s.used} of ${limit} distinct ${plural(limit)} named today.`
        : `This answer names ${s.fresh} ${plural(s.fresh)} not yet named today; only ${remaining} of the organization's daily ${limit} remain.`,
  };
}

/**
 * One capability request, in the order of docs/decisions/0300-gateway-check-order.md:
 * authenticate → suspension → scope → plan → account binding → rate windows
 * → body and arguments → upstream → answer check → budget and score → deliver.
 * Any fault (Redis, Postgres, upstream) ends in 500 internal_error with the
 * request id: no answer leaves unmetered.
 */
export async function serveCapability(gw: GatewayContext, ex: Exchange, capability: Capability, params: Record<string, string>): Promise<void> {
  const checked = gw.checked!;
  // Where a fault happened names the dependency that failed (keys: Postgres; windows, settle: Redis).
  let stage: 'keys' | 'windows' | 'request' | 'upstream' | 'settle' | 'scoring' = 'keys';
  // Attribution for usage, also on early refusals (validated with the arguments below).
  if (ex.req.headers[h.serviceOrigin] === 'mcp') ex.origin = 'mcp';
  try {
    const auth = await authenticate(presentedKey(ex.req.headers), checked.keys, gw.clock());
    if (!auth.ok && auth.code === 'invalid_credentials') {
      ex.req.resume();
      // A Signal's address opened in a browser: the same 401, as a page saying how to read it with a key (decision 1302).
      if (capability.name === 'explain_signal') {
        ex.addHeaders({ Vary: 'Accept' });
        if (prefersHtml(ex.req.headers)) {
          const html = signalAddressPage(gw.config.publicBaseUrl, params.signal_id);
          return refuse(gw, ex, 'invalid_credentials', { page: { html, headers: { 'Content-Security-Policy': SIGNAL_PAGE_CSP } } });
        }
      }
      return refuse(gw, ex, 'invalid_credentials');
    }
    const key = auth.key;
    ex.keyId = key.keyId;
    ex.orgId = key.orgId;
    stage = 'windows';
    if (!auth.ok) return await refuseAfterPeek(gw, checked, ex, key, 'key_suspended');
    const denial = authorizeCapability(key, capability);
    if (denial) return await refuseAfterPeek(gw, checked, ex, key, denial.code, denial.details);

    const rate = await checkRateWindows(checked.redis, gw.config.redisPrefix, key.keyId, key.plan, true);
    ex.addHeaders(rateLimitHeaders(rate));
    if (!rate.admitted) {
      ex.req.resume();
      if (rate.coolDown?.state === 'suspended') return refuse(gw, ex, 'key_suspended');
      if (rate.coolDown) {
        gw.metrics.extraction.inc({ action: 'refused_cooling' });
        return refuse(gw, ex, 'extraction_pattern_refused', { retryAfterSeconds: rate.retryAfterSeconds });
      }
      gw.metrics.rateRefusals.inc({ window: rate.reported.name });
      return refuse(gw, ex, 'rate_limited', { retryAfterSeconds: rate.retryAfterSeconds, details: { window: rate.reported.name } });
    }

    stage = 'request';
    const read = await readBody(ex.req);
    if (!read.ok) return refuse(gw, ex, 'payload_too_large', { closeConnection: true });
    const valid = validateRequest(capability, params, ex.req.url ?? '', ex.req.headers, read.body);
    if (!valid.ok) return refuse(gw, ex, 'invalid_request', { details: valid.details });
    ex.origin = valid.origin;

    const target = gw.config.upstreams[capability.service];
    // A page of Signals that may stop short within the budget, with a cursor to the rest (the capability's `paged`).
    const pageable = capability.paged;
    // A page that would cross the budget is asked again, shorter (decision 0312); a few tries at most,
    // in case other requests of the organisation spend what was left in between.
    let pageCap: number | null = null;
    let answer;
    let inspection;
    // Made once; forwarding signs them in place (a shorter page's copy is signed anew).
    const identity = upstreamHeaders(ex, key, valid.origin);
    for (let attempt = 1; ; attempt++) {
      stage = 'upstream';
      const forwarded = pageCap === null ? identity : { ...identity, [h.pageCap]: String(pageCap) };
      try {
        answer = await gw.upstreams.forward({
          service: capability.service,
          target,
          method: capability.method,
          path: ex.req.url ?? capability.path,
          headers: forwarded,
          body: read.body,
          timeoutMs: gw.config.upstreamTimeoutMs,
        });
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        gw.metrics.upstreamErrors.inc({ service: capability.service, reason: err.reason });
        gw.log.error({ request_id: ex.requestId, service: capability.service, reason: err.reason, err: err.message }, 'upstream gave no answer');
        return refuse(gw, ex, 'internal_error');
      }
      inspection = inspectAnswer(answer, ex.requestId, capability);
      if (!inspection.ok) {
        gw.metrics.upstreamErrors.inc({ service: capability.service, reason: 'malformed' });
        gw.log.error({ request_id: ex.requestId, service: capability.service, status: answer.status, problem: inspection.problem }, 'malformed upstream answer withheld');
        return refuse(gw, ex, 'internal_error');
      }
      if (pageCap !== null && inspection.entities.length > pageCap) {
        gw.metrics.upstreamErrors.inc({ service: capability.service, reason: 'malformed' });
        gw.log.error({ request_id: ex.requestId, service: capability.service, cap: pageCap, named: inspection.entities.length }, 'upstream page ignored its cap; withheld');
        return refuse(gw, ex, 'internal_error');
      }

      const observation = observe(capability, valid.input, answer.status, inspection.errorCode, inspection.answerStatus);
      const charges = answer.status === 200 && capability.cost !== 'nothing' && inspection.entities.length > 0;
      if (!charges && !observation) break;
      stage = 'settle';
      const now = gw.clock();
      const entities = answer.status === 200 ? inspection.entities : [];
      const answerToSettle = { day: utcDay(now), orgId: key.orgId, keyId: key.keyId, kind: capability.cost, limit: budgetLimit(key.plan, capability.cost), entities, observation };
      if (checked.settled.isRepeat(answerToSettle)) {
        // Redis would deliver it, charge nothing and add no points (limits/settled-today.ts).
        gw.metrics.settlements.inc({ path: 'repeat' });
        ex.charged = 0;
        break;
      }
      gw.metrics.settlements.inc({ path: 'redis' });
      const settlement = await settleAnswer(checked.redis, gw.config.redisPrefix, {
        orgId: key.orgId,
        keyId: key.keyId,
        kind: capability.cost,
        plan: key.plan,
        entities,
        observation,
        policy: checked.policy,
        now,
      });
      stage = 'scoring';
      const scoringContext = { keyId: key.keyId, orgId: key.orgId, requestId: ex.requestId, capability: capability.name, observation };
      if (settlement.outcome === 'over_budget') {
        if (pageable && settlement.fits > 0 && attempt < MAX_PAGE_ATTEMPTS) {
          pageCap = settlement.fits;
          continue;
        }
        gw.metrics.budgetRefusals.inc({ kind: capability.cost });
        return refuse(gw, ex, 'extraction_limit_reached', budgetRefusal(capability.cost, settlement, now));
      }
      if (settlement.outcome === 'cool_down') {
        gw.metrics.extraction.inc({ action: 'cool_down' });
        const retryAfterSeconds = await checked.enforcer.coolDown(scoringContext, settlement);
        return refuse(gw, ex, 'extraction_pattern_refused', { retryAfterSeconds });
      }
      if (settlement.outcome === 'suspend') {
        gw.metrics.extraction.inc({ action: 'suspend' });
        await checked.enforcer.suspend(scoringContext, settlement);
        return refuse(gw, ex, 'key_suspended');
      }
      checked.settled.remember(answerToSettle);
      ex.charged = settlement.spent;
      if (settlement.spent > 0) gw.metrics.budgetSpent.inc({ kind: capability.cost }, settlement.spent);
      break;
    }

    ex.status = answer.status;
    ex.code = inspection.errorCode;
    if (inspection.errorCode) gw.metrics.base.refusals.inc({ code: inspection.errorCode });
    sendBytes(ex.res, answer.status, answer.body, ex.headers);
  } catch (err) {
    gw.metrics.base.dependencyErrors.inc({ dependency: stage === 'keys' ? 'postgres' : stage === 'request' || stage === 'upstream' ? 'gateway' : 'redis' });
    gw.log.error({ request_id: ex.requestId, capability: capability.name, stage, err: err instanceof Error ? err.message : String(err) }, 'request failed');
    refuse(gw, ex, 'internal_error');
  } finally {
    finish(gw, ex);
  }
}

/**
 * A refusal before the windows are counted still reports them: read (not
 * counted) in one extra round trip, taken only on this refusal path.
 */
async function refuseAfterPeek(gw: GatewayContext, checked: Checked, ex: Exchange, key: KeyRecord, code: Parameters<typeof refuse>[2], details?: Record<string, unknown>): Promise<void> {
  ex.req.resume();
  ex.addHeaders(await peekRateLimitHeaders(checked.redis, gw.config.redisPrefix, key.keyId, key.plan));
  refuse(gw, ex, code, details ? { details } : {});
}

/**
 * What the upstream sees: the client's request headers minus credentials and
 * anything internal, plus the identity the gateway established.
 */
function upstreamHeaders(ex: Exchange, key: KeyRecord, origin: string): Record<string, string> {
  const out: Record<string, string> = {};
  const incoming = ex.req.headers;
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || isInternalHeader(name)) continue;
    if (name === 'authorization' || name === 'x-service-key' || name === 'cookie' || name === h.requestId || name.startsWith('x-forwarded-')) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  out[h.requestId] = ex.requestId;
  out[TRACEPARENT] = ex.trace.traceparent;
  out[h.orgId] = key.orgId;
  out[h.keyId] = key.keyId;
  out[h.planId] = key.plan.planId;
  out[h.watchLimit] = String(key.plan.watchLimit);
  out[h.serviceOrigin] = origin;
  const account = boundAccount(key);
  if (account) out[h.accountId] = account;
  return out;
}
