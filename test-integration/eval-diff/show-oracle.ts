// `npx tsx test-integration/eval-diff/show-oracle.ts [corpus-programs.txt] [filter]`: what C#
// gives for each program of a corpus (compiled by mcs, run in a fresh fixture), one line each,
// to review a corpus before the differential test compares the evaluator with it.

import path from 'node:path';

import { Games, oracleOutcomes } from './compare.js';
import { LINES, readCorpus } from './oracle.js';
import { PROGRAMS } from './programs.js';

const file = path.resolve(import.meta.dirname, process.argv[2] ?? 'corpus-programs.txt');
const filter = process.argv[3];
const dialect = file.endsWith('corpus.txt') ? LINES : PROGRAMS;
const cases = (await readCorpus(file)).filter((c) => !filter || c.program.includes(filter));
const games = new Games();
try {
  const out = await oracleOutcomes(await games.attach(), cases, dialect);
  for (const c of cases) console.log(`${c.id}\t${c.program}\n\t${JSON.stringify(out.get(c.id))}`);
} finally {
  await games.stop();
}
