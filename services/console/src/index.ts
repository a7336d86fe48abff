export { createConsoleApp, type ConsoleOptions } from './app';
export { defaultSessionLifetimes, type SessionLifetimes } from './sessions';
export { defaultSignInLimits, type SignInLimits } from './sign-in';
