import { describe, expect, it } from 'vitest';
import { capabilities } from '@evidence-record/contract';
import { authorizeCapability } from '../src/access/admission';
import { key } from './support/key-record';

describe('authorization order: scope, then plan, then account binding', () => {
  it('refuses a missing scope first, naming it', () => {
    expect(authorizeCapability(key(), capabilities.get_formula_history)).toEqual({ code: 'insufficient_scope', details: { required_scope: 'history:read' } });
  });
  it('a scope grant does not beat the plan', () => {
    expect(authorizeCapability(key(), capabilities.list_ledger_editions)?.code).toBe('plan_entitlement_required');
  });
  it('watch needs exactly one bound account', () => {
    expect(authorizeCapability(key(), capabilities.list_watched_products)).toBeNull();
    expect(authorizeCapability(key({ accountIds: [] }), capabilities.list_watched_products)?.code).toBe('account_binding_required');
    expect(authorizeCapability(key({ accountIds: ['a', 'b'] }), capabilities.list_watched_products)?.code).toBe('account_binding_required');
  });
});
