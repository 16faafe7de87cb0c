import { describe, expect, it } from 'vitest';

import { inferLevel, isStackLine, parseBlocks, type LogBlock } from './player-log-parse.js';

/** Blocks of a text the way the file reader cuts it (blank lines end blocks). */
function blocksOf(text: string, firstLine = 1, atFileStart = true): LogBlock[] {
  const blocks: LogBlock[] = [];
  let current: LogBlock | undefined;
  let blankBefore = false;
  text.split('\n').forEach((l, i) => {
    if (l === '') {
      if (current) blocks.push(current);
      current = undefined;
      blankBefore = true;
      atFileStart = false;
      return;
    }
    current ??= { line: firstLine + i, lines: [], blankBefore, atFileStart };
    current.lines.push(l);
    blankBefore = false;
    atFileStart = false;
  });
  return blocks;
}

describe('isStackLine', () => {
  it.each([
    'UnityEngine.Debug:Log (object)',
    'UnityEngine.Debug:Log(Object)',
    'Game.Ticker:Tick (int)',
    'Bootstrap:Update ()',
    'System.Threading.Thread:Sleep (int)',
    'Game.Combat.Hitbox:Resolve () (at Assets/Scripts/Combat/Hitbox.cs:128)',
    'Foo/<>c__DisplayClass22_0:<WaitForCondition>b__0 () (at ./Library/X.cs:46)',
    'System.Threading.Tasks.TaskCompletionSource`1<bool>:TrySetResult (bool)',
    'DG.Tweening.Core.TweenerCore`3<UnityEngine.Vector3, UnityEngine.Vector3, DG.Options>:ApplyTween (single,int)',
    'UnityEngine.SetupCoroutine:InvokeMoveNext (System.Collections.IEnumerator,intptr)',
    'Unity.AI.Gen:Append<Unity.AI.Data> (System.Func`2<Unity.AI.Data, string>)',
    '  at Game.Probe.Throw () [0x00000] in /src/Probe.cs:140 ',
    '  at (wrapper managed-to-native) System.Threading.Thread.SleepInternal(int)',
    'Example.Foo () (at Assets/Scripts/Example.cs:14 )',
    'UnityEngine.Transform.get_rotation () (at <cc54933d6df84ff08e916a4036d0b6c6>:0)',
  ])('%s is a frame', (line) => {
    expect(isStackLine(line)).toBe(true);
  });

  it.each([
    'Bootstrap warning #1: simulated warning',
    'Ticker heartbeat frame=120',
    'Note: a:b (c)',
    'see http://example.com (docs)',
    'Loaded scene main:Start (x)',
    'file.txt (missing)',
    'Screen: 320x180, target frame rate 60',
    'InvalidOperationException: boom',
  ])('%s is not a frame', (line) => {
    expect(isStackLine(line)).toBe(false);
  });
});

describe('inferLevel', () => {
  it.each([
    ['m', ['UnityEngine.Debug:Log (object)', 'Game.A:B ()'], 'log'],
    ['m', ['UnityEngine.Debug:LogFormat (string,object[])'], 'log'],
    ['m', ['UnityEngine.Debug:LogWarning (object)'], 'warning'],
    ['m', ['UnityEngine.Debug:LogWarningFormat (string,object[])'], 'warning'],
    ['m', ['UnityEngine.Debug:LogError (object,UnityEngine.Object)'], 'error'],
    ['m', ['UnityEngine.Debug:LogErrorFormat (string,object[])'], 'error'],
    ['m', ['UnityEngine.Debug:Assert (bool)'], 'assert'],
    ['m', ['UnityEngine.Debug:Assert (bool,object)'], 'assert'],
    ['m', ['UnityEngine.Debug:LogAssertion (object)'], 'assert'],
    ['X: m', ['UnityEngine.Debug:LogException (System.Exception)'], 'exception'],
    // old Unity: handler and logger frames above Debug's; Debug's decides
    [
      'm',
      [
        'UnityEngine.DebugLogHandler:Internal_Log(LogType, String, Object)',
        'UnityEngine.Logger:Log(LogType, Object)',
        'UnityEngine.Debug:LogWarning(Object)',
      ],
      'warning',
    ],
    ['m', ['UnityEngine.Logger:LogError (string,object)', 'Game.A:B ()'], 'error'],
    ['m', ['UnityEngine.Logger:Log (UnityEngine.LogType,object)', 'Game.A:B ()'], 'unknown'],
    // a message shaped like an exception, logged with Debug.Log, is a log
    ['FooException: not thrown', ['UnityEngine.Debug:Log (object)'], 'log'],
    [
      'NullReferenceException: Object reference not set',
      ['Foo.Update () (at A.cs:1)'],
      'exception',
    ],
    [
      'Game.TickException: tick 30',
      ['  at Game.Ticker.Tick (System.Int32 frame) [0x0]'],
      'exception',
    ],
    ['InvalidOperationException: boom', [], 'exception'],
    ['ArgumentException: outer ---> InvalidOperationException: inner', [], 'exception'],
    ['Exception: bare', [], 'exception'],
    ['Error: not an exception type', [], 'unknown'],
    ['The referenced script on this Behaviour is missing!', [], 'unknown'],
    ['m', ['Game.A:B ()'], 'unknown'],
  ] as const)('%s with %j is %s', (message, stack, level) => {
    expect(inferLevel(message, stack)).toBe(level);
  });
});

const HEADER = [
  "Mono path[0] = '/build'",
  'Initialize engine version: 2022.3.62f1 (fixture)',
  'UnloadTime: 0.412000 ms',
];

describe('parseBlocks', () => {
  it('splits the engine header from the first entry of the file', () => {
    const text = [
      ...HEADER,
      'first',
      'UnityEngine.Debug:Log (object)',
      'Bootstrap:Update ()',
      '',
    ].join('\n');
    expect(parseBlocks(blocksOf(text))).toEqual([
      { level: 'unknown', message: HEADER.join('\n'), line: 1 },
      {
        level: 'log',
        message: 'first',
        stackTrace: 'UnityEngine.Debug:Log (object)\nBootstrap:Update ()',
        line: 4,
      },
    ]);
  });

  it('keeps a header without an entry whole, and multi-line messages elsewhere whole', () => {
    const text = [...HEADER, '', 'multi', 'line', 'UnityEngine.Debug:LogWarning (object)', ''].join(
      '\n',
    );
    expect(parseBlocks(blocksOf(text))).toEqual([
      { level: 'unknown', message: HEADER.join('\n'), line: 1 },
      {
        level: 'warning',
        message: 'multi\nline',
        stackTrace: 'UnityEngine.Debug:LogWarning (object)',
        line: 5,
      },
    ]);
  });

  it('reads an empty message from the blank line before the stack', () => {
    const text = [
      'a',
      'UnityEngine.Debug:Log (object)',
      '',
      '',
      'UnityEngine.Debug:Log (object)',
      'X:Y ()',
      '',
    ].join('\n');
    const entries = parseBlocks(blocksOf(text, 10, false));
    expect(entries[1]).toEqual({
      level: 'log',
      message: '',
      stackTrace: 'UnityEngine.Debug:Log (object)\nX:Y ()',
      line: 13,
    });
  });

  it('reads exceptions: Mono stacks, Unity stacks, no stack', () => {
    const text = [
      'InvalidOperationException: boom from fixture',
      '  at Game.Probe.Throw () [0x00000] in /src/Probe.cs:140 ',
      '  at Bootstrap.Update () [0x00000] in /src/Bootstrap.cs:17 ',
      '',
      'NullReferenceException: Object reference not set to an instance of an object',
      'Example.Foo () (at Assets/Scripts/Example.cs:14)',
      '',
      'ArgumentException: outer ---> InvalidOperationException: inner',
      '',
    ].join('\n');
    expect(
      parseBlocks(blocksOf(text, 1, false)).map((e) => [
        e.level,
        e.line,
        e.stackTrace?.split('\n').length,
      ]),
    ).toEqual([
      ['exception', 1, 2],
      ['exception', 5, 1],
      ['exception', 8, undefined],
    ]);
  });

  it('drops the (Filename: ...) blocks real Unity writes after an entry', () => {
    const text = [
      'hello',
      'UnityEngine.Debug:Log (object)',
      'Test:Start () (at Assets/Test.cs:8)',
      '',
      '(Filename: Assets/Test.cs Line: 8)',
      '',
      'engine says hi',
      '',
    ].join('\n');
    expect(parseBlocks(blocksOf(text, 1, false))).toEqual([
      {
        level: 'log',
        message: 'hello',
        stackTrace: 'UnityEngine.Debug:Log (object)\nTest:Start () (at Assets/Test.cs:8)',
        line: 1,
      },
      { level: 'unknown', message: 'engine says hi', line: 7 },
    ]);
  });

  it('splits a message holding a blank line (a framing limit: the level stays with the stack)', () => {
    const text = ['part one', '', 'part two', 'UnityEngine.Debug:LogError (object)', ''].join('\n');
    expect(parseBlocks(blocksOf(text, 1, false)).map((e) => [e.level, e.message])).toEqual([
      ['unknown', 'part one'],
      ['error', 'part two'],
    ]);
  });

  it('reads what the fixture writes for each LogType', () => {
    const frames = [
      'System.Threading.Thread:SleepInternal (int)',
      'System.Threading.Thread:Sleep (int)',
    ];
    const text = [
      ['marker-1', 'UnityEngine.Debug:Log (object)', ...frames],
      ['w', 'UnityEngine.Debug:LogWarning (object)', ...frames],
      ['e', 'UnityEngine.Debug:LogError (object)', ...frames],
      ['wf 1', 'UnityEngine.Debug:LogWarningFormat (string,object[])', ...frames],
      ['as', 'UnityEngine.Debug:Assert (bool,object)', ...frames],
      ['Assertion failed', 'UnityEngine.Debug:Assert (bool)', ...frames],
      ['InvalidOperationException: boom'],
    ]
      .map((lines) => lines.join('\n') + '\n\n')
      .join('');
    expect(parseBlocks(blocksOf(text, 1, false)).map((e) => e.level)).toEqual([
      'log',
      'warning',
      'error',
      'warning',
      'assert',
      'assert',
      'exception',
    ]);
  });
});
