import { onFirstUse } from './on-first-use';

/** nats.js, loaded at the first connection: a program that reaches no NATS server (most operator CLI verbs) never loads it. */
export const natsClient = onFirstUse<typeof import('nats')>(import.meta.url, 'nats');
