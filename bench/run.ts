// `npm run bench [-- scenario...] [--rounds N] [--iterations N]`: our client and the reference C#
// client (Mono.Debugger.Soft, via bench/reference/RefBench.cs) against the same fixture in one
// run, alternating, several rounds; each figure is the median of the rounds. Prints a table per
// scenario and writes bench/results/<scenario>.json. Figures are reported, never asserted.

import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildFixture } from '../fixtures/build.js';
import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { buildReference, runReference } from './reference.js';
import { ecs } from './ecs.js';
import { debug } from './debug.js';
import { measureEval } from './eval.js';
import { mcp } from './mcp.js';
import { measureSession } from './session.js';
import { measurePipelinedBurst, measureWire } from './wire.js';
import { alternate, round, type Line, type Options } from './scenario.js';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

/**
 * Untimed calls before each light wire row, for both clients. Mono compiles a method fully on
 * its first call; V8 needs a few thousand calls to reach its optimising tier. A server process
 * is long-lived, so both are measured warm.
 */
const WARMUP = 2000;

interface Scenario {
  run(fixture: FixtureProcess, o: Options): Promise<{ lines: Line[]; json: unknown }>;
}

const wire: Scenario = {
  async run(fixture, o) {
    const bursts = Math.min(o.iterations, 10);
    const port = fixture.sdbPort;
    const m = await alternate(
      'wire',
      o.rounds,
      () =>
        runReference({
          port,
          scenario: 'wire',
          iterations: o.iterations,
          burstIterations: bursts,
          warmup: WARMUP,
          timeoutMs: 240_000,
        }),
      async () => {
        const w = await measureWire({ port, iterations: o.iterations, bursts, warmup: WARMUP });
        w.burst_1000_reads_pipelined_only_us = await measurePipelinedBurst({ port, bursts });
        return { ...w };
      },
    );
    // target: ours/reference at most this
    const rows: [string, number, string?][] = [
      ['static_field_read_us', 1.0],
      ['object_field_read_us', 1.0],
      ['array_10k_read_us', 0.5],
      ['string_1mb_read_us', 0.5],
      ['invoke_parked_us', 1.0],
      ['burst_1000_reads_us', 0.25], // at least 4x faster than the reference's sequential reads
      ['burst_1000_reads_pipelined_only_us', Infinity, 'burst_1000_reads_us'], // pipelining alone, for the record
    ];
    const json = rows.map(([name, , refName]) => {
      const ours = m.ours[name]!;
      const reference = m.reference[refName ?? name];
      if (reference === undefined)
        throw new Error(`the reference client reported no ${refName ?? name}`);
      return {
        name,
        ours_us: round(ours, 2),
        reference_us: round(reference, 2),
        ratio: round(ours / reference, 3),
      };
    });
    const lines = json.map((r, i): Line => {
      const t = rows[i]![1];
      return {
        name: r.name,
        ours: r.ours_us,
        reference: r.reference_us,
        unit: 'us',
        ...(Number.isFinite(t) ? { target: { kind: 'ratio', value: t } } : {}),
      };
    });
    return { lines, json };
  },
};

const session: Scenario = {
  async run(fixture, o) {
    const port = fixture.sdbPort;
    const n = Math.max(10, Math.min(o.iterations, 40));
    const m = await alternate(
      'session',
      o.rounds,
      () => runReference({ port, scenario: 'session', iterations: n, timeoutMs: 240_000 }),
      async () => ({ ...(await measureSession({ port, iterations: n })) }),
    );
    const names: [string, string][] = [
      ['idle_freeze_ms', "nothing (the frame loop's own lateness)"],
      ['field_read_freeze_ms', 'one field read in a suspend window'],
      ['one_invoke_freeze_ms', 'one invoke on the main thread'],
      ['ten_invokes_freeze_ms', 'ten invokes in one exclusive window'],
    ];
    const json = names.map(([name]) => ({
      name,
      ours: round(m.ours[name]!, 3),
      reference: round(m.reference[name]!, 3),
      unit: 'ms',
    }));
    const lines = json.map((r): Line => ({
      ...r,
      // idle is the baseline both share; the field read is held to 2 ms absolute
      ...(r.name === 'idle_freeze_ms'
        ? {}
        : r.name === 'field_read_freeze_ms'
          ? { target: { kind: 'absolute', value: 2 } }
          : { target: { kind: 'ratio', value: 1 } }),
    }));
    return { lines, json };
  },
};

const evaluation: Scenario = {
  async run(fixture, o) {
    const port = fixture.sdbPort;
    const n = Math.max(20, Math.min(o.iterations, 100));
    const m = await alternate(
      'eval',
      o.rounds,
      () => runReference({ port, scenario: 'eval', iterations: n, timeoutMs: 240_000 }),
      () => measureEval({ port, iterations: n }),
    );
    const programs = ['field_chain', 'property_chain', 'ecs_read'];
    const invokeTargets: Record<string, number> = {
      field_chain: 0,
      property_chain: 2,
      ecs_read: 3,
    };
    const json = programs.map((p) => ({
      program: p,
      ours_ms: round(m.ours[`${p}_ms`]!, 3),
      reference_ms: round(m.reference[`${p}_ms`]!, 3),
      ratio: round(m.ours[`${p}_ms`]! / m.reference[`${p}_ms`]!, 3),
      first_ms: round(m.ours[`${p}_first_ms`]!, 1),
      // the game is held only for the run: binding (the slow part of a first evaluation) is not
      first_freeze_ms: round(m.ours[`${p}_first_freeze_ms`]!, 2),
      second_to_first: round(m.ours[`${p}_ms`]! / m.ours[`${p}_first_ms`]!, 3),
      commands: round(m.ours[`${p}_commands`]!, 2),
      invokes: round(m.ours[`${p}_invokes`]!, 2),
      first_commands: m.ours[`${p}_first_commands`],
      first_invokes: m.ours[`${p}_first_invokes`],
      invokes_target: invokeTargets[p],
    }));
    const lines: Line[] = [];
    for (const r of json) {
      // an evaluation against the same work written by hand: parse, bind and format cost this much
      lines.push({
        name: `${r.program}_ms`,
        ours: r.ours_ms,
        reference: r.reference_ms,
        unit: 'ms',
        target: { kind: 'ratio', value: 1.5 },
      });
      lines.push({
        name: `${r.program}_first_ms`,
        ours: r.first_ms,
        reference: undefined,
        unit: 'ms',
      });
      lines.push({
        name: `${r.program}_invokes`,
        ours: r.invokes,
        reference: undefined,
        unit: 'invokes',
        target: { kind: 'absolute', value: r.invokes_target! + 0.5 },
      });
      lines.push({
        name: `${r.program}_commands`,
        ours: r.commands,
        reference: undefined,
        unit: 'commands',
      });
    }
    return { lines, json };
  },
};

const scenarios: Record<string, Scenario> = { wire, session, eval: evaluation, mcp, ecs, debug };

function printTable(name: string, lines: Line[]): void {
  console.log(`\n${name} (median of rounds)`);
  console.log(
    `${'row'.padEnd(36)}${'ours'.padStart(12)}${'reference'.padStart(12)}${'ours/ref'.padStart(10)}  target`,
  );
  for (const l of lines) {
    const ratio = l.reference === undefined ? undefined : l.ours / l.reference;
    let target = '';
    if (l.target) {
      const met =
        l.target.kind === 'ratio'
          ? ratio !== undefined && ratio <= l.target.value
          : l.ours < l.target.value;
      target = `${l.target.kind === 'ratio' ? `ratio <= ${l.target.value}` : `< ${l.target.value} ${l.unit}`}: ${met ? 'met' : 'MISSED'}`;
    }
    const ref = l.reference === undefined ? '-' : l.reference.toFixed(2);
    const r = ratio === undefined ? '-' : ratio.toFixed(3);
    console.log(
      `${`${l.name}`.padEnd(36)}${l.ours.toFixed(2).padStart(12)}${ref.padStart(12)}${r.padStart(10)}  ${target}`,
    );
  }
}

function parseArgs(argv: string[]): Options & { names: string[] } {
  const names: string[] = [];
  let rounds = 3;
  let iterations = 200;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--rounds') rounds = Number(argv[++i]);
    else if (a === '--iterations') iterations = Number(argv[++i]);
    else names.push(a);
  }
  for (const n of names)
    if (!scenarios[n])
      throw new Error(`unknown scenario ${n} (known: ${Object.keys(scenarios).join(', ')})`);
  return { names: names.length ? names : Object.keys(scenarios), rounds, iterations };
}

async function main(): Promise<void> {
  const { names, ...o } = parseArgs(process.argv.slice(2));
  await Promise.all([buildFixture(), buildReference()]);
  await mkdir(RESULTS, { recursive: true });
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, load ${load}`);
  for (const name of names) {
    const fixture = await startFixture();
    try {
      const { lines, json } = await scenarios[name]!.run(fixture, o);
      printTable(name, lines);
      await writeFile(path.join(RESULTS, `${name}.json`), `${JSON.stringify(json, null, 2)}\n`);
    } finally {
      await fixture.stop();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
