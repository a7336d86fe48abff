export { createConsoleApp, type ConsoleOptions } from './app';
export { addOperator, disableOperator, enableOperator, listOperators, verifyCredential, recordAction, type Operator, type OperatorListing, type OperatorRef } from './operators';
export { defaultSessionLifetimes, type SessionLifetimes } from './sessions';
export { defaultSignInLimits, type SignInLimits } from './sign-in';
