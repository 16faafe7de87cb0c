// Reading a string's text. STRING_REF.GET_VALUE makes the agent convert the whole string to
// UTF-8 first (slow for long strings, and it fails with INVALID_ARGUMENT on an unpaired
// surrogate); GET_CHARS sends UTF-16 code units as they are, and a prefix can be taken. So:
// the length once (strings never change; the connection caches it), then the chars wanted.

import type { SdbConnection } from './connection.js';

export interface StringRead {
  text: string;
  /** The string's full length in UTF-16 code units. */
  length: number;
  /** True when `text` is a prefix (maxChars was smaller than the length). */
  truncated: boolean;
}

export async function readString(
  conn: SdbConnection,
  objectId: number,
  options: { maxChars?: number } = {},
): Promise<StringRead> {
  const length = await conn.stringLength(objectId);
  const count = Math.min(length, Math.max(0, options.maxChars ?? length));
  const text =
    count === 0 ? '' : await conn.send('STRING_REF.GET_CHARS', { objectId, index: 0, count });
  return { text, length, truncated: count < length };
}
