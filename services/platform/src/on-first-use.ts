import { createRequire } from 'node:module';

/**
 * A CommonJS package loaded the first time it is used rather than when the
 * program starts (decision 0001): the operator CLI's bundle holds every verb,
 * and a verb that reaches no NATS server, Redis or source (most of them)
 * would otherwise load nats.js, ioredis and undici at every call, a third of
 * the call's CPU. Resolved from the calling module (`import.meta.url`), as
 * its own static import would be.
 */
export function onFirstUse<T>(importer: string, name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(importer)(name) as T);
}
