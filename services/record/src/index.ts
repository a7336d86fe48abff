export { createRecordApp, type RecordAppDeps } from './app';
export { loadRecordConfig, type RecordConfig } from './config';
