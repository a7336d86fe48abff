export { createGateway, connectRedis, type Gateway, type GatewayDeps } from './app';
export { loadGatewayConfig, assertChecksAllowed, type GatewayConfig } from './config';
export { defaultScoringPolicy, type ScoringPolicy } from './scoring/policy';
export * from './keyspace';
export { publishKeyChange } from './access/invalidation';
