import { describe, expect, it } from 'vitest';

import { generatedName, hoistedName, userMethodName } from './generated-code.js';

describe('generated code as the user wrote it', () => {
  it('names mcs state machines and lambdas', () => {
    expect(userMethodName('Game.Enemy.<Patrol>c__Iterator0', 'MoveNext')).toBe(
      'Game.Enemy.Patrol (coroutine)',
    );
    expect(userMethodName('Game.Enemy.<Load>c__async1', 'MoveNext')).toBe(
      'Game.Enemy.Load (async)',
    );
    expect(userMethodName('Game.Enemy.<Run>c__AnonStorey2', '<>m__0')).toBe(
      'Game.Enemy.Run (lambda)',
    );
    expect(userMethodName('Game.Enemy', '<Run>m__0')).toBe('Game.Enemy.Run (lambda)');
  });

  it('names Roslyn state machines, lambdas and local functions', () => {
    expect(userMethodName('Game.Enemy.<Patrol>d__3', 'MoveNext', false)).toBe(
      'Game.Enemy.Patrol (coroutine)',
    );
    expect(userMethodName('Game.Enemy.<Load>d__4', 'MoveNext', true)).toBe(
      'Game.Enemy.Load (async)',
    );
    expect(userMethodName('Game.Enemy.<>c', '<Run>b__5_0')).toBe('Game.Enemy.Run (lambda)');
    expect(userMethodName('Game.Enemy.<>c__DisplayClass5_0', '<Run>b__1')).toBe(
      'Game.Enemy.Run (lambda)',
    );
    expect(generatedName('Game.Enemy', '<Compute>g__Helper|5_0')).toEqual({
      type: 'Game.Enemy',
      method: 'Compute.Helper',
      kind: 'local function',
    });
  });

  it("leaves ordinary methods and a state machine's other methods alone", () => {
    expect(generatedName('Game.Enemy', 'Update')).toBeUndefined();
    expect(generatedName('Game.Enemy.<Patrol>c__Iterator0', 'Dispose')).toBeUndefined();
    expect(userMethodName('Game.Enemy', 'Update')).toBe('Game.Enemy.Update');
  });

  it('maps hoisted fields to source names, this, or nothing', () => {
    expect(hoistedName('<walked>__0')).toEqual({ name: 'walked' });
    expect(hoistedName('<walked>5__2')).toEqual({ name: 'walked' });
    expect(hoistedName('laps')).toEqual({ name: 'laps' });
    expect(hoistedName('$this')).toBe('this');
    expect(hoistedName('<>4__this')).toBe('this');
    for (const f of [
      '$PC',
      '$current',
      '<>1__state',
      '<>2__current',
      '<>t__builder',
      '<>u__1',
      '$awaiter0',
    ])
      expect(hoistedName(f)).toBeUndefined();
  });
});
