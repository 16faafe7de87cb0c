import { describe, expect, it } from 'vitest';

import { arrayDimensions } from './format-value.js';

describe('arrayDimensions', () => {
  it.each([
    [[3], [0], '3'],
    [[2, 3], [0, 0], '2,3'],
    [[3], [5], '5..7'],
    [[2, 3], [1, 10], '1..2,10..12'],
    [[2, 2], [-1, 0], '-1..0,0..1'],
    [[0], [5], '5..4'],
    [[4], [], '4'],
  ])('lengths %j from %j print as %s', (lengths, lower, text) => {
    expect(arrayDimensions(lengths, lower)).toBe(text);
  });
});
