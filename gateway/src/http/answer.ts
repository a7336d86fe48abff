import { answerStatuses, headers as h, isErrorCode, isJsonContentType, parseEntities, statusOf, type Capability } from '@evidence-record/contract';
import type { UpstreamAnswer } from './upstream';

/** More than this many entities in one answer is not an answer this contract produces. */
const MAX_ENTITIES = 500;

/** `answerStatus` is the envelope's `status` of a 200 (null for a refusal). */
export type Inspection = { ok: true; errorCode: string | null; entities: string[]; answerStatus: string | null } | { ok: false; problem: string };

/**
 * A minimal check of an upstream answer before the gateway vouches for it
 * (docs/decisions/0701-gateway-upstream-checks.md).
 *
 * A 200 is checked without parsing it: every service serialises the answer
 * envelope built by the contract, whose first members are always
 * `request_id`, `capability` and `status`, so the answer must be JSON that
 * opens with exactly this request's id, this capability and a valid status,
 * closes its object, and declares its budget entities in a header. Parsing
 * every answer again (tens of kilobytes for a product record) would cost
 * more than every other check together, to learn nothing the service's own
 * envelope validation has not already guaranteed.
 *
 * Anything else must be a refusal envelope whose code matches its HTTP
 * status; refusals are small and their code is needed, so they are parsed.
 * A malformed answer is never passed on.
 */
export function inspectAnswer(answer: UpstreamAnswer, requestId: string, capability: Capability): Inspection {
  if (answer.status === 200) {
    if (!isJsonContentType(answer.headers['content-type'])) return { ok: false, problem: 'upstream answered 200 with a body that is not JSON' };
    const head = `{"request_id":"${requestId}","capability":"${capability.name}","status":"`;
    const body = answer.body;
    if (body.length <= head.length || body.toString('latin1', 0, head.length) !== head) {
      return { ok: false, problem: 'upstream answer does not open with this request id and capability' };
    }
    const statusEnd = body.indexOf(QUOTE, head.length);
    const status = statusEnd < 0 ? '' : body.toString('latin1', head.length, statusEnd);
    if (!(answerStatuses as readonly string[]).includes(status)) return { ok: false, problem: 'upstream answer has no valid status' };
    if (body[body.length - 1] !== CLOSING_BRACE) return { ok: false, problem: 'upstream answer does not close its object' };
    const declared = answer.headers[h.budgetEntities];
    if (declared === undefined && capability.cost !== 'nothing') return { ok: false, problem: `upstream answer lacks ${h.budgetEntities}` };
    const entities = parseEntities(declared);
    if (entities.length > MAX_ENTITIES) return { ok: false, problem: 'upstream answer names too many entities' };
    return { ok: true, errorCode: null, entities, answerStatus: status };
  }

  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return { ok: false, problem: `upstream answered ${answer.status} with a body that is not JSON` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, problem: 'upstream answer is not an object' };
  const b = body as Record<string, unknown>;
  if (b.request_id !== requestId) return { ok: false, problem: 'upstream answer does not carry this request id' };
  const error = b.error as Record<string, unknown> | undefined;
  if (b.status !== 'refused' || typeof error !== 'object' || error === null || !isErrorCode(error.code)) {
    return { ok: false, problem: `upstream answered ${answer.status} without a refusal envelope` };
  }
  if (statusOf(error.code) !== answer.status) return { ok: false, problem: `upstream refusal ${error.code} came with HTTP ${answer.status}` };
  return { ok: true, errorCode: error.code, entities: [], answerStatus: null };
}

const QUOTE = 0x22;
const CLOSING_BRACE = 0x7d;
