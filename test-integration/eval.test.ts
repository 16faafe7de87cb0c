// The evaluator in the game, beyond what the differential corpus can show: the builtins (`_`,
// world, em, entity), the two-pass promise (a refused program changes nothing), what errors say,
// and each deliberate divergence from C# that docs/eval-contract.md lists.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import type { EvaluateOptions, EvaluateResult } from '../eval/index.js';
import { evaluateInGame, evaluateInSession } from '../unity/eval-bridge/evaluate-in-session.js';
import { UnityError } from '../unity/errors.js';
import { GameSession } from '../unity/session/session.js';

let fixture: FixtureProcess;
let session: GameSession;
const logged: string[] = [];

beforeAll(async () => {
  fixture = await startFixture({ entities: 200 });
  session = new GameSession({ log: (m) => logged.push(m) });
  await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
});

afterAll(async () => {
  await session?.shutdown();
  await fixture?.stop();
});

async function run(source: string, options: EvaluateOptions = {}) {
  const r = await session.run('eval', 'test', (ctx) => evaluateInGame(ctx, source, options));
  return { value: r.value, cost: r.cost };
}

async function value(source: string, options: EvaluateOptions = {}): Promise<string> {
  const { value: v } = await run(source, options);
  if (v.kind !== 'value') throw new Error(`${source}: ${JSON.stringify(v)}`);
  return v.text;
}

async function refusal(source: string): Promise<UnityError> {
  try {
    await run(source);
  } catch (e) {
    if (e instanceof UnityError) return e;
    throw e;
  }
  throw new Error(`${source} was not refused`);
}

function exception(v: EvaluateResult): Extract<EvaluateResult, { kind: 'exception' }> {
  if (v.kind !== 'exception') throw new Error(`expected an exception, got ${JSON.stringify(v)}`);
  return v;
}

describe('builtins', () => {
  it('`_` is the previous value on this connection, with its static type', async () => {
    expect(await value('Game.Probe.SPoint')).toBe('(3, 4)');
    expect(await value('_.X * 10 + _.Y')).toBe('34');
    // a failed program leaves `_` as it was
    await refusal('nope');
    expect(await value('_ + 1')).toBe('35');
  });

  it('world, em and entity(index, version) reach the ECS world', async () => {
    expect(await value('world.Name')).toBe('"Default World"');
    expect(await value('em.Exists(entity(7, 1))')).toBe('True');
    expect(await value('em.Exists(entity(7, 2))')).toBe('False');
    expect(await value('entity(7, 1)')).toBe('Entity(7:1)');
  });

  it('entity(index) finds the live version by asking EntityManager.Exists', async () => {
    expect(await value('entity(9)')).toBe('Entity(9:1)');
    // destroy and recreate: the index comes back with version 2 (LIFO reuse)
    expect(await value('em.DestroyEntity(entity(9)); em.CreateEntity()')).toBe('Entity(9:2)');
    expect(await value('entity(9)')).toBe('Entity(9:2)');
    const r = exception((await run('entity(100000)')).value);
    expect(r.type).toBe('System.ArgumentException');
    expect(r.message).toMatch(/no live entity has index 100000 .* entity\(100000, version\)/);
  });
});

describe('a refused program changes nothing', () => {
  it('binds the whole program before running any of it', async () => {
    const before = await value('Game.Probe.SCounter');
    const r = await refusal(
      'Game.Probe.IncrementCounter(); Game.Probe.SCounter = 99; undefinedName',
    );
    expect(r.code).toBe('NAME_NOT_FOUND');
    expect(r.details?.csCode).toBe('CS0103');
    expect(await value('Game.Probe.SCounter')).toBe(before);
  });

  it('reports the cost of what ran, and no invoke for a field chain', async () => {
    await value('Game.Probe.SChain.Next.Value');
    const { cost } = await run('Game.Probe.SChain.Next.Value');
    expect(cost.invokes).toBe(0);
  });
});

describe('errors say what failed in the program’s terms', () => {
  it('names the part of a chain that was null', async () => {
    const r = exception((await run('Game.Probe.SChain.Next.Next.Next.Value')).value);
    expect(r.type).toBe('System.NullReferenceException');
    expect(r.hint).toBe("'Game.Probe.SChain.Next.Next.Next' is null");
    const call = exception((await run('Game.Shop.Shelf[1].Describe()')).value);
    expect(call.hint).toBe("'Game.Shop.Shelf[1]' is null");
  });

  it('suggests the closest member names', async () => {
    const r = await refusal('Game.Probe.SChian');
    expect(r.message).toMatch(
      /CS0117: 'Game\.Probe' does not contain a definition for 'SChian' \(closest: 'SChain'/,
    );
    expect(r.message).toMatch(/column 12/);
  });

  it('returns the game’s own exception, type and message', async () => {
    const r = exception((await run('Game.Probe.ThrowNested()')).value);
    expect(r.type).toBe('System.ArgumentException');
    expect(r.message).toBe('outer');
  });

  it('gives syntax errors with their column, all of them', async () => {
    const r = await refusal('goto x; 1 +');
    expect(r.code).toBe('PARSE_ERROR');
    expect((r.details?.errors as unknown[]).length).toBeGreaterThanOrEqual(2);
    expect(r.message).toMatch(/goto/);
  });
});

describe('divergences from C# (docs/eval-contract.md)', () => {
  it('1. non-public members are reachable', async () => {
    // World.s_AllWorlds is internal: C# outside the assembly would refuse (CS0122)
    expect(await value('Unity.Entities.World.s_AllWorlds[0].Name')).toBe('"Default World"');
  });

  it('2. a simple type name resolves in any namespace where it is unique', async () => {
    // Game is not among the default usings: C# would refuse (CS0103)
    expect(await value('Probe.SInt')).toBe('-123456789');
    const strict = await session
      .run('eval', 'test', (ctx) => evaluateInGame(ctx, 'Probe.SInt', { anyNamespace: false }))
      .catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(UnityError);
    expect((strict as UnityError).details?.csCode).toBe('CS0103');
  });

  it('3. two boxed values are not compared by reference (box identity is not kept)', async () => {
    // C# says True here (b is a's box); the evaluator refuses rather than guess
    const r = await refusal('object a = 1; object b = a; a == b');
    expect(r.code).toBe('EVAL_UNSUPPORTED');
    expect(r.message).toMatch(/compare the values themselves/);
    expect(await value('object a = 1; object b = a; (int)a == (int)b')).toBe('True');
  });

  it("4. of the extension methods only System.Linq.Enumerable's are searched", async () => {
    expect(await value('Game.Shop.Ints.Sum()')).toBe('6');
    const r = await refusal('Game.Shop.Ints.Frobnicate()');
    expect(r.details?.csCode).toBe('CS1061');
    expect(r.message).toMatch(/only System\.Linq\.Enumerable's are searched/);
  });

  it('5. named arguments must follow positional ones (C# 7.2 would accept this one)', async () => {
    const r = await refusal('Game.Shop.Named(a: 1, "x")');
    expect(r.details?.csCode).toBe('CS1738');
  });

  it('6. ??= works, as in C# 8 (mcs, the oracle, predates it)', async () => {
    expect(await value('string s = null; s ??= "x"; s')).toBe('"x"');
  });

  it('7. a float constant expression folds at double precision (as mcs; Roslyn rounds)', async () => {
    expect(await value('(double)(16777216f + 1f)')).toBe('16777217');
    // stored, it is a float again, as in both compilers; non-constant float math rounds each step
    expect(await value('float f = 16777216f + 1f; (double)f')).toBe('16777216');
    expect(await value('float a = 16777216f; (double)(a + 1f)')).toBe('16777216');
  });

  it('where mcs breaks the spec, C# wins: (int)2147483648UL is CS0221', async () => {
    expect((await refusal('(int)2147483648UL')).details?.csCode).toBe('CS0221');
    expect(await value('unchecked((int)2147483648UL)')).toBe('-2147483648');
  });
});

// docs/eval-contract.md's promises, against the game's own values and metadata
describe('the contract', () => {
  it('constant patterns evaluate as C# does (object.Equals: a boxed long is not 42)', async () => {
    expect(await value('Game.Probe.SObjects[0] is 42')).toBe('True');
    expect(await value('Game.Probe.SObjects[0] is 42L')).toBe('False');
    expect(await value('Game.Probe.SObjects[0] is -42')).toBe('False');
    expect(await value('Game.Probe.SObjects[1] is "str"')).toBe('True');
    expect(await value('Game.Probe.SObjects[4] is Game.Color.Blue')).toBe('True');
    expect(await value('Game.Probe.SObjects[2] is null')).toBe('True');
    expect(await value('double d = double.NaN; d is double.NaN')).toBe('True');
    expect(await value('int x = 7; x is 7 && !(x is 8)')).toBe('True');
    expect((await refusal('int x = 7; x is "a"')).details?.csCode).toBe('CS0029');
  });

  it('-0.0 prints as 0, as Mono prints it', async () => {
    expect(await value('-0.0')).toBe('0');
    expect(await value('-0.0f')).toBe('0');
    expect(await value('1.0 / (-0.0) < 0')).toBe('True');
  });

  it('a member of a readonly struct field is CS1648, of a static readonly one CS1650', async () => {
    const r = await refusal('Game.EvalTargets.SHome.X = 9');
    expect(r.details?.csCode).toBe('CS1650');
    expect(
      (await refusal('Game.EvalTargets.SHome.Translate(1, 1); Game.EvalTargets.SHome.X += 1'))
        .details?.csCode,
    ).toBe('CS1650');
    expect((await refusal('Game.EvalTargets.Instance.Anchor.Y = 9')).details?.csCode).toBe(
      'CS1648',
    );
    expect((await refusal('Game.EvalTargets.SHome = new Game.Point()')).details?.csCode).toBe(
      'CS0198',
    );
    expect(await value('Game.EvalTargets.SHome')).toBe('(1, 2)');
    expect(await value('Game.EvalTargets.Instance.Anchor')).toBe('(3, 4)');
    // a method on a readonly field runs on a copy (C#), and a plain struct field is a variable
    expect(await value('Game.EvalTargets.SHome.Translate(1, 1); Game.EvalTargets.SHome')).toBe(
      '(1, 2)',
    );
    expect(await value('var t = new Game.EvalTargets(); t.Free.X = 9; t.Free')).toBe('(9, 6)');
  });

  it.each([
    ['Game.EvalTargets.OfClass(1)', 'CS0452'],
    ['Game.EvalTargets.OfClass<int>(1)', 'CS0452'],
    ['Game.EvalTargets.OfStruct("a")', 'CS0453'],
    ['Game.EvalTargets.OfStruct<int?>(1)', 'CS0453'],
    ['Game.EvalTargets.OfNew<Game.NoDefaultCtor>()', 'CS0310'],
    ['Game.EvalTargets.OfNew<string>()', 'CS0310'],
    ['Game.EvalTargets.OfNode("a")', 'CS0311'],
    ['Game.EvalTargets.OfNode<int>(1)', 'CS0315'],
    ['Game.EvalTargets.OfComparable<object>(1, 2)', 'CS0311'],
    ['Game.EvalTargets.OfComparable<Game.Point>(new Game.Point(), new Game.Point())', 'CS0315'],
    ['Game.EvalTargets.OfClassNew<int>()', 'CS0452'],
    // a constraint built from type parameters: the game's refusal, reported as mcs does
    ['Game.EvalTargets.OfSelfComparable<object>(null)', 'CS0311'],
    ['Game.EvalTargets.OfSelfComparable<Game.Node>(null)', 'CS0311'],
  ])('a generic method against its constraints: %s is %s (as mcs)', async (source, code) => {
    const r = await refusal(source);
    expect(r.code).toBe('EVAL_COMPILE');
    expect(r.details?.csCode).toBe(code);
  });

  it('a generic method within its constraints runs', async () => {
    expect(await value('Game.EvalTargets.OfClass("a")')).toBe('"class"');
    expect(await value('Game.EvalTargets.OfStruct(Game.Color.Red)')).toBe('"struct"');
    expect(await value('Game.EvalTargets.OfNew<Game.Node>()')).toBe('"Node"');
    expect(await value('Game.EvalTargets.OfNew<int>()')).toBe('"Int32"');
    expect(await value('Game.EvalTargets.OfNode(new Game.Node { Value = 3 })')).toBe('3');
    expect(await value('Game.EvalTargets.OfComparable(1, 2)')).toBe('-1');
    expect(await value('Game.EvalTargets.OfSelfComparable(1)')).toBe('"self"');
    expect(await value('Game.EvalTargets.OfClassNew<Game.EvalTargets>()')).toBe('"EvalTargets"');
  });
});

describe('static constructors', () => {
  it('run before a static is first read, as C# does (the agent alone reads zeros)', async () => {
    const fresh = new GameSession();
    const other = await startFixture({ entities: 10 });
    try {
      await fresh.attach({ kind: 'endpoint', host: '127.0.0.1', port: other.sdbPort });
      const r = await fresh.run('eval', 'test', (ctx) => evaluateInGame(ctx, 'Game.Shop.Wallet'));
      expect(r.value.kind === 'value' && r.value.text).toBe('$12.00');
      expect(r.cost.invokes).toBeGreaterThanOrEqual(2); // TypeHandle + RunClassConstructor
    } finally {
      await fresh.shutdown();
      await other.stop();
    }
  });
});

describe('nested types of a closed generic type', () => {
  it('names List<int>.Enumerator as C# does, and calls through it', async () => {
    const program =
      'System.Collections.Generic.List<int>.Enumerator e = Game.Probe.SList.GetEnumerator(); ' +
      'e.MoveNext(); e.Current';
    expect(await value(program)).toBe(await value('Game.Probe.SList[0]'));
    expect(await value('default(System.Collections.Generic.List<int>.Enumerator).Current')).toBe(
      '0',
    );
    // the static type as C# writes it: the outer's arguments on the outer
    const shown = (await run('Game.Probe.SList.GetEnumerator()')).value;
    expect(shown.kind === 'value' && shown.type).toBe(
      'System.Collections.Generic.List<int>.Enumerator',
    );
  });
});

describe('binding outside the window', () => {
  it('binds a program that must ask the game in the window, without logging a failure', async () => {
    logged.length = 0;
    // naming a closed generic of a game type invokes MakeGenericType: no binding without a window
    const program = 'new System.Collections.Generic.List<Game.Point>().Count';
    const first = await evaluateInSession(session, 'test', program);
    expect(first.value).toMatchObject({ kind: 'value', text: '0' });
    expect(logged.filter((l) => l.includes('binding outside the window'))).toEqual([]);
  });
});
