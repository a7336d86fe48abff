export { createEmailWorkerApp } from './app';
export { loadEmailWorkerConfig, EmailWorkerConfigSchema, type EmailWorkerConfig } from './config';
export { renderAlertEmail, messageIdFor, signalUrl } from './message';
export { startEmailWorker, alertMessageHandler } from './worker';
export { createMailer, classifySmtpFailure } from './smtp';
