/** Scopes name a class of question (spec: Authentication). */
export const scopes = [
  'record:search',
  'products:read',
  'history:read',
  'signals:read',
  'comparisons:create',
  'economics:read',
  'research:read',
  'regulatory:read',
  'category:read',
  'framework:read',
  'ledger:read',
  'watch:manage',
] as const;
export type Scope = (typeof scopes)[number];

/** Never on a self-service key: granted only against a named account. */
export const accountBoundScopes: readonly Scope[] = ['ledger:read', 'watch:manage'];
export const selfServiceScopes: readonly Scope[] = scopes.filter((s) => !accountBoundScopes.includes(s));

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}
