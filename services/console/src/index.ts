export { createConsoleApp, type ConsoleOptions } from './app';
export { addOperator, verifyCredential, recordAction, type Operator } from './operators';
