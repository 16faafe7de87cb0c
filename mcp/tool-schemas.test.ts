// The tool schemas agents see are an interface: any change to a name, an argument, a result
// field or an annotation fails here until the baseline is deliberately rewritten
// (`npx tsx scripts/tools-doc.ts --baseline`) and the diff reviewed.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { listTools } from './server.js';

describe('tool schemas', () => {
  it('match the committed baseline', () => {
    const baseline = JSON.parse(
      readFileSync(new URL('./tool-schemas.baseline.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(
      JSON.parse(JSON.stringify(listTools())),
      'tool schemas changed: if deliberate, run `npx tsx scripts/tools-doc.ts --baseline`',
    ).toEqual(baseline);
  });
});
