// The oracle's cut of a program into statements (program-shape.ts): where a statement ends, what
// the last one is, and whether the program itself returns, on the shapes the corpus writes.

import { describe, expect, it } from 'vitest';

import { shapeOf } from './program-shape.js';

describe('shapeOf', () => {
  it.each([
    // program, the statements before the last, the last, its kind
    ['int a = 1; a + 1', ['int a = 1;'], 'a + 1', 'expression'],
    ['if (a) { x = 1; } else if (b) { x = 2; } else { x = 3; } x', 1, 'x', 'expression'],
    ['if (x) { } while (y) { z++; } q', 2, 'q', 'expression'],
    [
      'int a = 1; if (a > 0) try { a++; } catch (Exception e) { a = 2; } a + 1',
      2,
      'a + 1',
      'expression',
    ],
    ['int n = 0; do { n++; } while (n < 3); n', 2, 'n', 'expression'],
    ['int n = 0; do n++; while (n < 3); n', 2, 'n', 'expression'],
    ['var o = new { a = 1 }; o', ['var o = new { a = 1 };'], 'o', 'expression'],
    ['Func<int> f = () => { return 1; }; f()', 1, 'f()', 'expression'],
    ['var s = "a;b}"; s', ['var s = "a;b}";'], 's', 'expression'],
    ['var s = $"{(1 > 0 ? "x" : "y")};"; s', 1, 's', 'expression'],
    [
      'try { a(); } catch (E) { } finally { b(); }',
      0,
      'try { a(); } catch (E) { } finally { b(); }',
      'other',
    ],
    ['foreach (var x in xs) if (x > 4) return x; return -1;', 1, 'return -1', 'other'],
    ['int a = 1, b = 2', 0, 'int a = 1, b = 2', 'declaration'],
    ['var l = new List<int> { 1 }', 0, 'var l = new List<int> { 1 }', 'declaration'],
    ['x = 5', 0, 'x = 5', 'expression'],
    ['a < b == c', 0, 'a < b == c', 'expression'],
  ] as const)('%s', (program, head, last, kind) => {
    const shape = shapeOf(program);
    if (typeof head === 'number') expect(shape.head).toHaveLength(head);
    else expect(shape.head).toEqual(head);
    expect(shape.last).toBe(last);
    expect(shape.lastKind).toBe(kind);
  });

  it('names the variable a declaration ends with', () => {
    expect(shapeOf('int a = 1, b = 2').declared).toBe('b');
    expect(shapeOf('var total = xs.Sum(x => x)').declared).toBe('total');
  });

  it('tells a return of the program from one of a lambda inside it', () => {
    expect(shapeOf('if (a) return 1; 2').returns).toBe(true);
    expect(shapeOf('Func<int> f = () => { return 1; }; f()').returns).toBe(false);
    expect(shapeOf('switch (x) { case 1: return 1; default: return 2; }').returns).toBe(true);
  });
});
