import type { Noun } from '../cli';

/** Every noun of the operator CLI. Add a noun by adding its module here. */
export const nouns: Noun[] = [];
