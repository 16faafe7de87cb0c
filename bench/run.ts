// `npm run bench [-- scenario...] [--rounds N] [--iterations N]`: our client and the reference C#
// client (Mono.Debugger.Soft, via bench/reference/RefBench.cs) against the same fixture in one run,
// alternating, several rounds; each row is the median of the rounds' means. Prints a table and
// writes bench/results/<scenario>.json. Figures are reported, never asserted: machines are noisy.

import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildFixture } from '../fixtures/build.js';
import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { buildReference, runReference } from './reference.js';
import { measurePipelinedBurst, measureWire } from './wire.js';

/** Rows of ours compared with a differently named row of the reference. */
const referenceRow: Record<string, string> = {
  burst_1000_reads_pipelined_only_us: 'burst_1000_reads_us',
};

/**
 * Untimed calls before each light row, for both clients. Mono compiles a method fully on its
 * first call; V8 needs a few thousand calls to reach its optimising tier. A server process is
 * long-lived, so both are measured warm.
 */
const WARMUP = 2000;

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

interface Row {
  name: string;
  ours_us: number;
  reference_us: number;
  ratio: number;
}

/** Upper bounds on ours/reference per row, from the issues. */
const targets: Record<string, Record<string, number>> = {
  wire: {
    static_field_read_us: 1.0,
    object_field_read_us: 1.0,
    array_10k_read_us: 0.5,
    string_1mb_read_us: 0.5,
    invoke_parked_us: 1.0,
    burst_1000_reads_us: 0.25, // at least 4x faster: pipelined against sequential
  },
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function parseArgs(argv: string[]): { scenarios: string[]; rounds: number; iterations: number } {
  const scenarios: string[] = [];
  let rounds = 3;
  let iterations = 200;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--rounds') rounds = Number(argv[++i]);
    else if (a === '--iterations') iterations = Number(argv[++i]);
    else scenarios.push(a);
  }
  return { scenarios: scenarios.length ? scenarios : Object.keys(targets), rounds, iterations };
}

async function benchWire(
  fixture: FixtureProcess,
  rounds: number,
  iterations: number,
): Promise<Row[]> {
  const ours: Record<string, number[]> = {};
  const reference: Record<string, number[]> = {};
  const bursts = Math.min(iterations, 10);
  for (let round = 1; round <= rounds; round++) {
    process.stderr.write(`wire: round ${round}/${rounds}: reference client...`);
    const ref = await runReference({
      port: fixture.sdbPort,
      scenario: 'wire',
      iterations,
      burstIterations: bursts,
      warmup: WARMUP,
      timeoutMs: 240_000,
    });
    process.stderr.write(' ours...');
    const mine = await measureWire({ port: fixture.sdbPort, iterations, bursts, warmup: WARMUP });
    mine.burst_1000_reads_pipelined_only_us = await measurePipelinedBurst({
      port: fixture.sdbPort,
      bursts,
    });
    process.stderr.write(' done\n');
    for (const [k, v] of Object.entries(mine as unknown as Record<string, number>)) {
      (ours[k] ??= []).push(v);
    }
    for (const k of Object.keys(mine)) {
      const r = ref[referenceRow[k] ?? k];
      if (r === undefined) throw new Error(`the reference client reported no ${k}`);
      (reference[k] ??= []).push(r);
    }
  }
  return Object.keys(ours).map((name) => {
    const o = median(ours[name]!);
    const r = median(reference[name]!);
    return { name, ours_us: round2(o), reference_us: round2(r), ratio: round3(o / r) };
  });
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

function printTable(scenario: string, rows: Row[]): void {
  const t = targets[scenario] ?? {};
  console.log(`\n${scenario} (median of rounds; µs per operation)`);
  console.log(
    `${'row'.padEnd(24)}${'ours'.padStart(12)}${'reference'.padStart(12)}${'ours/ref'.padStart(10)}${'target'.padStart(9)}  `,
  );
  for (const r of rows) {
    const target = t[r.name];
    const verdict = target === undefined ? '' : r.ratio <= target ? 'met' : 'MISSED';
    console.log(
      `${r.name.padEnd(24)}${r.ours_us.toFixed(1).padStart(12)}${r.reference_us.toFixed(1).padStart(12)}${r.ratio.toFixed(3).padStart(10)}${(target === undefined ? '' : `<= ${target}`).padStart(9)}  ${verdict}`,
    );
  }
}

async function main(): Promise<void> {
  const { scenarios, rounds, iterations } = parseArgs(process.argv.slice(2));
  await Promise.all([buildFixture(), buildReference()]);
  await mkdir(RESULTS, { recursive: true });
  console.log(
    `machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  for (const scenario of scenarios) {
    const fixture = await startFixture();
    try {
      let rows: Row[];
      if (scenario === 'wire') rows = await benchWire(fixture, rounds, iterations);
      else
        throw new Error(`unknown scenario ${scenario} (known: ${Object.keys(targets).join(', ')})`);
      printTable(scenario, rows);
      await writeFile(path.join(RESULTS, `${scenario}.json`), `${JSON.stringify(rows, null, 2)}\n`);
    } finally {
      await fixture.stop();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
