import { headers as h, presentedKey, type Capability } from '@evidence-record/contract';
import { TRACEPARENT } from '@evidence-record/platform';
import { authenticate, authorizeCapability, boundAccount } from './access/admission';
import type { KeyRecord } from './access/key-record';
import { refuse, finish, isInternalHeader, type Exchange, type GatewayContext } from './context';
import { inspectAnswer } from './http/answer';
import { readBody, sendBytes } from './http/io';
import { UpstreamError } from './http/upstream';
import { validateRequest } from './http/validate';
import { secondsToNextUtcMidnight, utcDay } from './keyspace';
import { checkRateWindows, rateLimitHeaders } from './limits/rate-windows';
import { budgetLimit, settleAnswer } from './limits/settle';
import { observe } from './scoring/observe';

type Checked = NonNullable<GatewayContext['checked']>;

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

    stage = 'upstream';
    const target = gw.config.upstreams[capability.service];
    let answer;
    try {
      answer = await gw.upstreams.forward(ex.req, ex.res, {
        target,
        path: ex.req.url ?? capability.path,
        headers: upstreamHeaders(ex, key, valid.origin),
        body: read.body,
        timeoutMs: gw.config.upstreamTimeoutMs,
      });
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      gw.metrics.upstreamErrors.inc({ service: capability.service, reason: err.reason });
      gw.log.error({ request_id: ex.requestId, service: capability.service, reason: err.reason, err: err.message }, 'upstream gave no answer');
      return refuse(gw, ex, 'internal_error');
    }
    const inspection = inspectAnswer(answer, ex.requestId, capability);
    if (!inspection.ok) {
      gw.metrics.upstreamErrors.inc({ service: capability.service, reason: 'malformed' });
      gw.log.error({ request_id: ex.requestId, service: capability.service, status: answer.status, problem: inspection.problem }, 'malformed upstream answer withheld');
      return refuse(gw, ex, 'internal_error');
    }

    const observation = observe(capability, valid.input, answer.status, inspection.errorCode);
    const charges = answer.status === 200 && capability.cost !== 'nothing' && inspection.entities.length > 0;
    if (charges || observation) {
      stage = 'settle';
      const now = gw.clock();
      const entities = answer.status === 200 ? inspection.entities : [];
      const answerToSettle = { day: utcDay(now), orgId: key.orgId, keyId: key.keyId, kind: capability.cost, limit: budgetLimit(key.plan, capability.cost), entities, observation };
      if (checked.settled.isRepeat(answerToSettle)) {
        // Redis would deliver it, charge nothing and add no points (limits/settled-today.ts).
        gw.metrics.settlements.inc({ path: 'repeat' });
        ex.charged = 0;
      } else {
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
        switch (settlement.outcome) {
          case 'over_budget':
            gw.metrics.budgetRefusals.inc({ kind: capability.cost });
            return refuse(gw, ex, 'extraction_limit_reached', {
              retryAfterSeconds: secondsToNextUtcMidnight(now),
              details: { budget: capability.cost, limit: settlement.limit, used: settlement.used },
            });
          case 'cool_down': {
            gw.metrics.extraction.inc({ action: 'cool_down' });
            const retryAfterSeconds = await checked.enforcer.coolDown(scoringContext, settlement);
            return refuse(gw, ex, 'extraction_pattern_refused', { retryAfterSeconds });
          }
          case 'suspend':
            gw.metrics.extraction.inc({ action: 'suspend' });
            await checked.enforcer.suspend(scoringContext, settlement);
            return refuse(gw, ex, 'key_suspended');
          case 'deliver':
            checked.settled.remember(answerToSettle);
            ex.charged = settlement.spent;
            if (settlement.spent > 0) gw.metrics.budgetSpent.inc({ kind: capability.cost }, settlement.spent);
        }
      }
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
  const peek = await checkRateWindows(checked.redis, gw.config.redisPrefix, key.keyId, key.plan, false);
  ex.addHeaders(rateLimitHeaders(peek));
  refuse(gw, ex, code, details ? { details } : {});
}

/**
 * What the upstream sees: the client's request headers minus credentials and
 * anything internal, plus the identity the gateway established.
 */
function upstreamHeaders(ex: Exchange, key: KeyRecord, origin: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(ex.req.headers)) {
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
