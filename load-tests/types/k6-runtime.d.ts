// Globals the k6 runtime provides that @types/k6 leaves to lib.dom / @types/node.
// lib is ES2020 only (no DOM, no Node), so declare exactly what the scripts use.
export {};

declare global {
  interface K6Console {
    log(...data: unknown[]): void;
    info(...data: unknown[]): void;
    warn(...data: unknown[]): void;
    error(...data: unknown[]): void;
    debug(...data: unknown[]): void;
  }
  // eslint-disable-next-line no-var
  var console: K6Console;
}
