// A value now or later: what compiled code (compiled.ts) and pulled sequences pass around, so
// that code whose game reads are already answered runs without a promise per step. A promise
// appears only where something really waits (a wire read, an invoke, a delegated node).

export type Maybe<T> = T | Promise<T>;

/** Whether a Maybe is the later kind. */
export const isPromise = (x: unknown): x is Promise<unknown> => x instanceof Promise;

/**
 * Runs `fn` and then `after` (on every path, as a finally block): now when `fn` gave a value or
 * threw, after its promise settles otherwise.
 */
export function andFinally<T>(fn: () => Maybe<T>, after: () => void): Maybe<T> {
  let r: Maybe<T>;
  try {
    r = fn();
  } catch (e) {
    after();
    throw e;
  }
  if (r instanceof Promise) return r.finally(after);
  after();
  return r;
}
