// Parse speed: `npx tsx eval/syntax/bench.ts`. Prints the warm time per parse of a ~200
// character program of the kind agents send (measured: see the numbers in the report of the
// change that added it; expect a few tens of microseconds). No test asserts on timing.

import { pathToFileURL } from 'node:url';

import { parse } from './parser.js';

export const BENCH_PROGRAM =
  'var e = entity(42); var t = em.GetComponentData<Translation>(e).Value; ' +
  '$"pos=({t.x:F2}, {t.y:F2}) hp={em.GetComponentData<Health>(e).Current}/{(float)max * 1.5f:0.0}"' +
  ' + (t.x > 0 ? "R" : "L")';

export function measure(source: string, iterations: number): number {
  for (let i = 0; i < 2000; i++) parse(source); // warm up the JIT
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) parse(source);
  return Number(process.hrtime.bigint() - start) / 1000 / iterations;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (parse(BENCH_PROGRAM).errors.length > 0) throw new Error('the bench program does not parse');
  const micros = measure(BENCH_PROGRAM, 20000);
  process.stdout.write(
    `${BENCH_PROGRAM.length} characters: ${micros.toFixed(1)} µs per parse (warm, mean of 20000)\n`,
  );
}
