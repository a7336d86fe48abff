import { answerStatuses, headers as h, isErrorCode, parseEntities, statusOf, type Capability } from '@evidence-record/contract';
import type { UpstreamAnswer } from './upstream';

/** More than this many entities in one answer is not an answer this contract produces. */
const MAX_ENTITIES = 500;

export type Inspection = { ok: true; errorCode: string | null; entities: string[] } | { ok: false; problem: string };

/**
 * A minimal check of an upstream answer before the gateway vouches for it:
 * JSON, carrying this request's id; a 200 is an answer envelope with its
 * budget entities declared; anything else is a refusal envelope whose code
 * matches its HTTP status. A malformed answer is never passed on.
 */
export function inspectAnswer(answer: UpstreamAnswer, requestId: string, capability: Capability): Inspection {
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return { ok: false, problem: `upstream answered ${answer.status} with a body that is not JSON` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, problem: 'upstream answer is not an object' };
  const b = body as Record<string, unknown>;
  if (b.request_id !== requestId) return { ok: false, problem: 'upstream answer does not carry this request id' };

  if (answer.status === 200) {
    if (b.capability !== capability.name) return { ok: false, problem: 'upstream answer names another capability' };
    if (typeof b.status !== 'string' || !(answerStatuses as readonly string[]).includes(b.status)) {
      return { ok: false, problem: 'upstream answer has no valid status' };
    }
    const declared = answer.headers[h.budgetEntities];
    if (declared === undefined && capability.cost !== 'nothing') return { ok: false, problem: `upstream answer lacks ${h.budgetEntities}` };
    const entities = parseEntities(declared);
    if (entities.length > MAX_ENTITIES) return { ok: false, problem: 'upstream answer names too many entities' };
    return { ok: true, errorCode: null, entities };
  }

  const error = b.error as Record<string, unknown> | undefined;
  if (b.status !== 'refused' || typeof error !== 'object' || error === null || !isErrorCode(error.code)) {
    return { ok: false, problem: `upstream answered ${answer.status} without a refusal envelope` };
  }
  if (statusOf(error.code) !== answer.status) return { ok: false, problem: `upstream refusal ${error.code} came with HTTP ${answer.status}` };
  return { ok: true, errorCode: error.code, entities: [] };
}
