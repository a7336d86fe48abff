export { createWatchApp } from './app';
export { loadWatchConfig, WatchConfigSchema, type WatchConfig } from './config';
export type { WatchDeps } from './deps';
export { startSignalFanout } from './fanout/start';
export { fanOutSignal } from './fanout/signal-fanout';
export { alertIdFor } from './fanout/alert-id';
