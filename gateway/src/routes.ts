import { HEALTH_PATH, OPENAPI_PATH, capabilityList, type Capability } from '@evidence-record/contract';

/**
 * The public routing table, built once from the contract's capability table.
 * A path is matched against the most specific patterns first (fewest path
 * parameters): `/api/v1/products/resolve` is the resolve path, so a GET there
 * is 405 (Allow: POST), not a product lookup of a product called "resolve".
 */
export type RouteMatch =
  | { kind: 'capability'; capability: Capability; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[]; capability: string }
  | { kind: 'unknown' }
  | { kind: 'bad_path' };

interface Pattern {
  regex: RegExp;
  paramNames: string[];
  specificity: number;
  methods: Map<string, Capability | null>;
  /** Name used in refusals for this path (the first capability on it). */
  name: string;
}

function compile(path: string): { regex: RegExp; paramNames: string[] } {
  const paramNames: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        paramNames.push(segment.slice(1));
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { regex: new RegExp(`^${source}$`), paramNames };
}

export class RouteTable {
  private readonly patterns: Pattern[] = [];

  constructor(capabilities: readonly Capability[] = capabilityList) {
    const byPath = new Map<string, Pattern>();
    const add = (path: string, method: string, capability: Capability | null, name: string) => {
      let p = byPath.get(path);
      if (!p) {
        const { regex, paramNames } = compile(path);
        p = { regex, paramNames, specificity: paramNames.length, methods: new Map(), name };
        byPath.set(path, p);
      }
      p.methods.set(method, capability);
    };
    // Health and the description are served before this table is consulted;
    // they are here so that a wrong method on them is a 405 too.
    add(HEALTH_PATH, 'GET', null, 'health');
    add(OPENAPI_PATH, 'GET', null, 'openapi');
    for (const cap of capabilities) add(cap.path, cap.method, cap, cap.name);
    this.patterns = [...byPath.values()].sort((a, b) => a.specificity - b.specificity);
  }

  match(method: string, pathname: string): RouteMatch {
    const best: { pattern: Pattern; values: string[] }[] = [];
    for (const pattern of this.patterns) {
      if (best.length > 0 && pattern.specificity > best[0]!.pattern.specificity) break;
      const m = pattern.regex.exec(pathname);
      if (m) best.push({ pattern, values: m.slice(1) });
    }
    if (best.length === 0) return { kind: 'unknown' };
    for (const { pattern, values } of best) {
      const capability = pattern.methods.get(method);
      if (capability) {
        const params: Record<string, string> = {};
        try {
          pattern.paramNames.forEach((name, i) => {
            params[name] = decodeURIComponent(values[i]!);
          });
        } catch {
          return { kind: 'bad_path' };
        }
        return { kind: 'capability', capability, params };
      }
    }
    const allow = [...new Set(best.flatMap(({ pattern }) => [...pattern.methods.keys()]))];
    return { kind: 'method_not_allowed', allow, capability: best[0]!.pattern.name };
  }
}
