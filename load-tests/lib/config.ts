/**
 * Configuration from the environment (`__ENV`): the gateway, the keys, the
 * fixture overrides and the SLO scale (load-tests/README.md, Configuration).
 */
import { fail } from 'k6';
import { splitSequence, splitSet } from './lists.ts';

function env(name: string): string | undefined {
  const v = __ENV[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

export function envString(name: string, fallback: string): string {
  return env(name) ?? fallback;
}

export function envInt(name: string, fallback: number): number {
  const v = env(name);
  if (v === undefined) return fallback;
  const n = parseInt(v, 10);
  if (!isFinite(n)) throw new Error(`${name} must be an integer, got "${v}"`);
  return n;
}

export function envFloat(name: string, fallback: number): number {
  const v = env(name);
  if (v === undefined) return fallback;
  const n = parseFloat(v);
  if (!isFinite(n)) throw new Error(`${name} must be a number, got "${v}"`);
  return n;
}

export function envBool(name: string, fallback: boolean): boolean {
  const v = env(name);
  if (v === undefined) return fallback;
  return /^(1|true|yes|on)$/i.test(v);
}

/** A comma-separated set (fixture ids, names to skip): empty entries dropped, duplicates removed, order kept. */
export function envList(name: string): string[] {
  return splitSet(env(name));
}

/** A comma-separated sequence (stages): every entry kept, repeats included, in order. */
export function envSequence(name: string): string[] {
  return splitSequence(env(name));
}

export interface Config {
  /** Gateway base URL without a trailing slash. */
  baseUrl: string;
  /** Key for load and smoke traffic: every scope, on a plan with high windows and budgets. */
  apiKey: string;
  /** A free-plan key (rate-limit scenario; budget scenario falls back to it). */
  freeKey: string;
  /** A free-plan key of an organization whose product budget is untouched today. */
  budgetKey: string;
  productIds: string[];
  signalIds: string[];
  productNames: string[];
  ingredientIds: string[];
  editionId: string;
  /** Pages of the Signal feed read at most during discovery (25 Signals a page). */
  discoveryMaxPages: number;
  /** Multiplies every latency SLO (e.g. 2 on a laptop, 0.5 for a tighter gate). */
  sloScale: number;
  mcpProtocolVersion: string;
  userAgent: string;
}

function loadConfig(): Config {
  const freeKey = envString('FREE_KEY', '');
  return {
    baseUrl: envString('BASE_URL', 'http://127.0.0.1:8080').replace(/\/+$/, ''),
    apiKey: envString('API_KEY', ''),
    freeKey,
    budgetKey: envString('BUDGET_KEY', freeKey),
    productIds: envList('PRODUCT_IDS'),
    signalIds: envList('SIGNAL_IDS'),
    productNames: envList('PRODUCT_NAMES'),
    ingredientIds: envList('INGREDIENT_IDS'),
    editionId: envString('EDITION_ID', ''),
    discoveryMaxPages: envInt('DISCOVERY_MAX_PAGES', 4),
    sloScale: envFloat('SLO_SCALE', 1),
    mcpProtocolVersion: envString('MCP_PROTOCOL_VERSION', '2025-06-18'),
    userAgent: envString('USER_AGENT', 'evidence-record-k6/1'),
  };
}

export const config: Config = loadConfig();

export function requireKey(name: 'API_KEY' | 'FREE_KEY' | 'BUDGET_KEY', value: string): string {
  if (value === '') {
    fail(`${name} is not set. Pass it with -e ${name}=sk_... (see load-tests/README.md).`);
  }
  return value;
}
