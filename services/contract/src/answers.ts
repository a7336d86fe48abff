import { z } from 'zod';
import { count, open } from './answer-parts';
import { capabilityList, type AnswerObjectField, type CapabilityName } from './capabilities';

export { LedgerEditionEntry, Proportion, WatchItem } from './answer-parts';
// Answer shapes of one capability that another module names.
export { Comparison } from './capabilities/compare-products';
export { SearchCoverage } from './capabilities/search-record';

/**
 * The answer objects the spec leaves untyped ("Internal fields of the
 * coverage, comparison, ledger and watch objects: not shown"), as the
 * services fill them today. Each capability's own shapes are in its module
 * (capabilities/, `answer`); the parts several share are in answer-parts.ts.
 * They are open objects: the spec promises additive change, so a client
 * must accept a field it does not know, and a service adding a field is not
 * a breaking change. What keeps an internal field from leaving is the
 * service that builds the object (and the strict sub-records it holds), not
 * these shapes. `answers.test` in the end-to-end suite parses real answers
 * of the demo Record against a closed copy of these shapes, so a field a
 * service adds without describing it here fails a test rather than drifting
 * silently.
 *
 * Which answer objects each capability fills, and their shape, is its
 * module's `answer`; a capability not listed for a field never fills it.
 */
export const answerObjects = Object.fromEntries(capabilityList.map((cap) => [cap.name, cap.answer])) as Record<CapabilityName, Partial<Record<AnswerObjectField, z.ZodType>>>;

const union = (field: AnswerObjectField) => {
  const options = [...new Set(Object.values(answerObjects).flatMap((o) => (o[field] ? [o[field]] : [])))];
  return z.union(options as [z.ZodType, z.ZodType, ...z.ZodType[]]);
};

export const Coverage = union('coverage').describe('What the answer covers; its shape depends on the capability (see each operation).').meta({ id: 'Coverage' });
export const Ledger = union('ledger').describe('list_ledger_editions and get_ledger_edition').meta({ id: 'Ledger' });
export const Watch = union('watch').describe('the watch operations').meta({ id: 'Watch' });

/** error.details: what a refusal names. Open: a code may name more. */
export const ErrorDetails = open({
  location: z.string().optional().describe('invalid_request: body, query, path or header'),
  field: z.string().optional().describe('invalid_request and not_found: the field at fault'),
  issues: z.array(open({ field: z.string(), problem: z.string() })).optional().describe('invalid_request: up to 10 problems'),
  required_scope: z.string().optional().describe('insufficient_scope: the scope the capability requires'),
  capability: z.string().optional().describe('plan_entitlement_required'),
  plan: z.string().optional().describe('plan_entitlement_required'),
  bound_accounts: count.optional().describe('account_binding_required: how many accounts the organization is bound to'),
  window: z.string().optional().describe('rate_limited: minute, hour or day'),
  budget: z.string().optional().describe('extraction_limit_reached: product, signal or ingredient'),
  limit: count.optional().describe("extraction_limit_reached: the day's budget; watch_limit_reached: the watch limit"),
  used: count.optional().describe('extraction_limit_reached: distinct entities already answered today'),
  remaining: count.optional().describe("extraction_limit_reached: what is left of the day's budget"),
  needed: count.optional().describe('extraction_limit_reached: distinct new entities the answer would have named'),
  count: count.optional().describe('watch_limit_reached: products on the watchlist'),
  allowed_methods: z.array(z.string()).optional().describe('method_not_allowed: the methods the path takes (also in the Allow header)'),
  unknown: z.array(z.string()).optional().describe('not_found on compare_products and the ingredient contexts: the ids the Record does not hold'),
  product_id: z.string().optional().describe('not_found on watch_product: the id the Record does not hold'),
})
  .describe('What the refusal names; for invalid_request the field, for insufficient_scope required_scope. Open: new members may appear.')
  .meta({ id: 'ErrorDetails' });

/**
 * A deep copy of a schema with every object closed (unknown keys refused).
 * The answer objects are open to clients; tests parse real answers and the
 * document's examples with the closed copy, so neither can carry a field
 * the contract does not describe.
 */
export function closedSchema(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) return z.strictObject(Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, closedSchema(v as z.ZodType)])));
  if (schema instanceof z.ZodArray) return z.array(closedSchema(schema.element as z.ZodType));
  if (schema instanceof z.ZodOptional) return closedSchema(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return closedSchema(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodUnion) return z.union((schema.options as z.ZodType[]).map(closedSchema) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  if (schema instanceof z.ZodRecord) return z.record(schema.keyType as z.ZodString, closedSchema(schema.valueType as z.ZodType));
  return schema;
}
