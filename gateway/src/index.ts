export { createGateway, connectRedis, type Gateway, type GatewayDeps } from './app';
export { loadGatewayConfig, assertChecksAllowed, type GatewayConfig } from './config';
