// Test helpers: the UnityError a call throws, or a promise rejects with (anything else fails the test).

import { UnityError } from '../errors.js';

export function caught(fn: () => unknown): UnityError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UnityError) return error;
    throw error;
  }
  throw new Error('expected a UnityError');
}

/** The UnityError `p` rejects with (a fulfilled promise or any other error fails the test). */
export async function refusal(p: Promise<unknown>): Promise<UnityError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof UnityError) return error;
    throw error;
  }
  throw new Error('expected a UnityError');
}
