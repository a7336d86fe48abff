/** Types of .dependency-cruiser.mjs for the TypeScript that imports it (scripts/registry/dependency-rules.test.ts). */
import type { ICruiseOptions, IForbiddenRuleType } from 'dependency-cruiser';

export type TemporaryException = {
  name: string;
  /** Path pattern of the importing files. */
  from: string;
  why: string;
} & ({ rule: 'no-circular' } | { rule: 'imports-deployable'; /** The deployable service they may still import. */ deployable: string });
export const TEST_PATHS: string[];
export const temporaryExceptions: TemporaryException[];
export function workspaceDirs(root?: string): string[];
export function deployableDirs(root?: string, registryFile?: string): Record<string, string>;
export function dependencyRules(tree: { workspaces: string[]; deployables: Record<string, string>; exceptions?: TemporaryException[] }): IForbiddenRuleType[];
export const cruiseOptions: ICruiseOptions;
declare const config: { forbidden: IForbiddenRuleType[]; options: ICruiseOptions };
export default config;
