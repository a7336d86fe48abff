export * from './config';
export * from './db';
export * from './http';
export * from './logger';
export * from './metrics';
export * from './migrate';
export * from './nats';
export * from './durable-consumer';
