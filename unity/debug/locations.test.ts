import { describe, expect, it } from 'vitest';

import {
  codeLines,
  normalizeSignature,
  offsetForLine,
  pointAt,
  sourcePoints,
  type SourcePoint,
} from './locations.js';

// A method as mcs lays it out: `{` at 10, two statements on 11, one on 12, a hidden point.
const points: SourcePoint[] = [
  { ilOffset: 0, line: 10 },
  { ilOffset: 1, line: 11 },
  { ilOffset: 8, line: 11 },
  { ilOffset: 14, line: 0xfeefee },
  { ilOffset: 20, line: 12 },
];

describe('line tables', () => {
  it.each([
    [0, 10],
    [5, 11],
    [8, 11],
    [15, 11], // inside a hidden point: the last real line
    [40, 12],
  ])('IL %i is on line %i', (il, line) => {
    expect(pointAt(points, il)?.line).toBe(line);
  });

  it('a line breakpoint goes to the first sequence point of the line', () => {
    expect(offsetForLine(points, 11)).toBe(1);
    expect(offsetForLine(points, 13)).toBeUndefined();
  });

  it('lists the lines with code, without hidden ones', () => {
    expect(codeLines(points)).toEqual([10, 11, 12]);
  });

  it('reads points from the agent layout, sorted, with their file', () => {
    expect(
      sourcePoints({
        codeSize: 30,
        files: [{ path: '/src/A.cs' }],
        points: [
          { ilOffset: 5, line: 2, sourceIndex: 0, column: -1, endLine: -1, endColumn: -1 },
          { ilOffset: 0, line: 1, sourceIndex: -1, column: -1, endLine: -1, endColumn: -1 },
        ],
      }),
    ).toEqual([
      { ilOffset: 0, line: 1 },
      { ilOffset: 5, line: 2, file: '/src/A.cs' },
    ]);
  });
});

describe('signatures', () => {
  it.each([
    ['(int)', '(System.Int32)'],
    ['int, string', '(System.Int32, System.String)'],
    ['()', ''],
    ['(float)', '(System.Single)'],
  ])('%s matches %s', (a, b) => {
    expect(normalizeSignature(a)).toBe(normalizeSignature(b));
  });

  it('tells different overloads apart', () => {
    expect(normalizeSignature('(int)')).not.toBe(normalizeSignature('(long)'));
  });
});
