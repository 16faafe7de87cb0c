// Test helper: runs `fn` and returns the UnityError it throws (anything else fails the test).

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
