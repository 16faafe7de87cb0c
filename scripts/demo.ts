// `npm run demo`: builds the bundled fixture game, starts it under Mono with the real debugger
// agent, and drives it end to end over the wire, printing what it saw. It leaves the game as it
// found it: every suspend resumed, the debugger detached with VM.DISPOSE, the game ended by pid.

import { buildFixture } from '../fixtures/build.js';
import { evaluateInSession } from '../unity/eval-bridge/evaluate-in-game.js';
import { GameSession } from '../unity/session/session.js';
import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import {
  InvokeFlags,
  SdbConnection,
  Values,
  invokeWhenParked,
  type Value,
} from '../sdb-protocol/index.js';

function show(label: string, value: unknown): void {
  console.log(
    `  ${label.padEnd(34)} ${typeof value === 'string' ? value : JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`,
  );
}

function id(v: Value | undefined): number {
  if (v?.kind !== 'object' && v?.kind !== 'string')
    throw new Error(`expected an object, got ${JSON.stringify(v)}`);
  return v.objectId;
}

async function main(): Promise<void> {
  console.log('Building the fixture game (cached by a hash of its sources)...');
  await buildFixture();
  let fixture: FixtureProcess | undefined;
  let conn: SdbConnection | undefined;
  try {
    fixture = await startFixture();
    console.log(
      `Fixture game running: pid ${fixture.pid}, debugger agent on 127.0.0.1:${fixture.sdbPort}\n`,
    );

    const t0 = performance.now();
    conn = await SdbConnection.connect({ port: fixture.sdbPort });
    console.log(`Attached in ${(performance.now() - t0).toFixed(1)} ms`);
    show('agent', conn.agent.description);
    show(
      'protocol (agent / declared)',
      `${conn.agent.major}.${conn.agent.minor} / ${conn.version.toString()}`,
    );

    const threads = await conn.send('VM.ALL_THREADS');
    const names = await Promise.all(
      threads.map((t) => conn!.send('THREAD.GET_NAME', { threadId: t })),
    );
    show(
      'threads',
      names.map((n) => n || '(unnamed: the main thread)'),
    );
    const main = threads[names.indexOf('')]!;

    const [probe] = await conn.send('VM.GET_TYPES', { name: 'Game.Probe', ignoreCase: false });
    const fields = await conn.send('TYPE.GET_FIELDS', { typeId: probe! });
    const f = (name: string): number => fields.find((x) => x.name === name)!.fieldId;
    const [sInt, sLong, sNonAscii, sBig, sBigInts, sOuter] = await conn.send('TYPE.GET_VALUES', {
      typeId: probe!,
      fieldIds: ['SInt', 'SLong', 'SNonAscii', 'SBig', 'SBigInts', 'SOuter'].map(f),
    });
    console.log('\nGame.Probe, read in one command:');
    show('SInt', sInt);
    show('SLong (beyond 2^53, exact)', sLong);
    show('SNonAscii', await conn.send('STRING_REF.GET_VALUE', { objectId: id(sNonAscii) }));
    show('SOuter (nested struct)', sOuter);
    let t = performance.now();
    const big = await conn.send('STRING_REF.GET_VALUE', { objectId: id(sBig) });
    show('SBig', `${big.length} chars in ${(performance.now() - t).toFixed(1)} ms`);
    t = performance.now();
    const ints = await conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: id(sBigInts),
      index: 0,
      count: 100_000,
    });
    show(
      'SBigInts',
      `${ints.length} ints in ${(performance.now() - t).toFixed(1)} ms, last = ${(ints.at(-1) as { value: number }).value}`,
    );

    t = performance.now();
    const burst = await Promise.all(
      Array.from({ length: 1000 }, () =>
        conn!.send('TYPE.GET_VALUES', { typeId: probe!, fieldIds: [f('SInt')] }),
      ),
    );
    show(
      '1,000 pipelined field reads',
      `${burst.length} in ${(performance.now() - t).toFixed(1)} ms`,
    );

    console.log('\nOn the main thread (suspend, wait for it to leave native code, invoke):');
    const [add] = await conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
      typeId: probe!,
      name: 'Add',
      flags: 8 | 16,
    });
    const [thrower] = await conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
      typeId: probe!,
      name: 'Throw',
      flags: 8 | 16,
    });
    await conn.send('VM.SUSPEND');
    try {
      const r = await invokeWhenParked(
        conn,
        {
          threadId: main,
          flags: InvokeFlags.DISABLE_BREAKPOINTS,
          methodId: add!,
          thisArg: Values.null(),
          args: [Values.i4(2), Values.i4(40)],
        },
        { parkTimeoutMs: 2000 },
      );
      show(
        'Game.Probe.Add(2, 40)',
        `${JSON.stringify(r.result)} (parked after ${r.waitedMs.toFixed(1)} ms, ${r.retries} NOT_SUSPENDED retries)`,
      );
      const e = await conn.send('VM.INVOKE_METHOD', {
        threadId: main,
        flags: InvokeFlags.DISABLE_BREAKPOINTS,
        methodId: thrower!,
        thisArg: Values.null(),
        args: [],
      });
      if (e.threw) {
        const typeId = await conn.send('OBJECT_REF.GET_TYPE', { objectId: id(e.exception) });
        show(
          'Game.Probe.Throw()',
          `threw ${(await conn.send('TYPE.GET_INFO', { typeId })).fullName}`,
        );
      }
    } finally {
      await conn.send('VM.RESUME');
    }

    console.log('\nThe ECS world (static field reads, no invoke):');
    const [world] = await conn.send('VM.GET_TYPES', {
      name: 'Unity.Entities.World',
      ignoreCase: false,
    });
    const worldFields = await conn.send('TYPE.GET_FIELDS', { typeId: world! });
    const [all] = await conn.send('TYPE.GET_VALUES', {
      typeId: world!,
      fieldIds: [worldFields.find((x) => x.name === 's_AllWorlds')!.fieldId],
    });
    const listType = await conn.send('OBJECT_REF.GET_TYPE', { objectId: id(all) });
    const listFields = await conn.send('TYPE.GET_FIELDS', { typeId: listType });
    const [items, size] = await conn.send('OBJECT_REF.GET_VALUES', {
      objectId: id(all),
      fieldIds: ['_items', '_size'].map((n) => listFields.find((x) => x.name === n)!.fieldId),
    });
    const worlds = await conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: id(items),
      index: 0,
      count: (size as { value: number }).value,
    });
    const nameField = worldFields.find((x) => x.name === '<Name>k__BackingField')!.fieldId;
    for (const w of worlds) {
      const [name] = await conn.send('OBJECT_REF.GET_VALUES', {
        objectId: id(w),
        fieldIds: [nameField],
      });
      show('world', await conn.send('STRING_REF.GET_VALUE', { objectId: id(name) }));
    }

    const [hitch] = await conn.send('VM.GET_TYPES', {
      name: 'FixtureEngine.Hitch',
      ignoreCase: false,
    });
    const hitchFields = await conn.send('TYPE.GET_FIELDS', { typeId: hitch! });
    const frames = async (): Promise<bigint> => {
      const [v] = await conn!.send('TYPE.GET_VALUES', {
        typeId: hitch!,
        fieldIds: [hitchFields.find((x) => x.name === 'Frames')!.fieldId],
      });
      return (v as { value: bigint }).value;
    };
    const a = await frames();
    await new Promise((r) => setTimeout(r, 500));
    show('frames advanced in 500 ms', String((await frames()) - a));
    show('wire commands sent', conn.stats.commandsSent);

    await conn.close();
    conn = undefined;
    console.log('\nDetached with VM.DISPOSE. A second debugger, the session, evaluates C#:');
    const session = new GameSession();
    try {
      await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
      for (const program of [
        'Game.Probe.SChain.Next.Next.Value',
        'Game.Probe.SPoint + new Game.Point(1, 1)',
        'var p = Game.Probe.SPoint; p.Translate(10, 0); p',
        '$"{world.Name}: entity 12 is {entity(12)}, at {em.GetComponentData<LocalTransform>(entity(12)).Position}"',
        'Game.Probe.SBig',
        'checked(Game.Probe.SInt * 20)',
        'Game.Probe.SChain.Next.Next.Next.Value',
        'Game.Probe.SChian',
      ]) {
        try {
          const r = await evaluateInSession(session, 'demo', program);
          const v = r.value;
          const text =
            v.kind === 'value'
              ? `${v.text}  (${v.type})`
              : v.kind === 'void'
                ? 'void'
                : `threw ${v.type}: ${v.message}${v.hint ? ` (${v.hint})` : ''}`;
          console.log(
            `  > ${program}\n    ${text}\n    [${r.cost.wireCommands} commands, ${r.cost.invokes} invokes, game held ${r.cost.freezeMs} ms]`,
          );
        } catch (e) {
          console.log(`  > ${program}\n    refused: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    } finally {
      await session.shutdown();
    }
    console.log('\nEvery window resumed, detached with VM.DISPOSE; the game kept running. Done.');
  } finally {
    await conn?.close();
    await fixture?.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
