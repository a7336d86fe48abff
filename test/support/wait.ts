/**
 * The one polling helper of the tests: polls `probe` every `everyMs` until it
 * returns something truthy, and returns that; throws naming `what` after
 * `timeoutMs`. A probe that throws fails the wait at once.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
