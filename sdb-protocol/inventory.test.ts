// Every command of the protocol reference has a codec here or a reasoned place on the
// not-supported list; and the codecs sit at the numbers the reference gives.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { commands } from './commands/index.js';
import { notSupported } from './not-supported.js';
import { CommandSet } from './vocabulary.js';

const referencePath = fileURLToPath(new URL('../docs/reference/sdb-protocol.md', import.meta.url));

/** `SET.NAME` → command number, from the tables of §3.2–3.15. */
function referenceCommands(markdown: string): Map<string, number> {
  const out = new Map<string, number>();
  let set: string | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^### 3\.\d+ ([A-Z_]+) \((\d+)\)/.exec(line);
    if (heading) {
      set = heading[1];
      continue;
    }
    if (line.startsWith('## ') || line.startsWith('### 3.16')) set = undefined;
    if (!set) continue;
    const row = /^\| (\d+)(?:[–-](\d+))? \| ([A-Z_0-9, ]+) \|/.exec(line);
    if (!row) continue;
    const first = Number(row[1]);
    const names = row[3]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    names.forEach((name, i) => out.set(`${set}.${name}`, first + i));
  }
  return out;
}

describe('protocol inventory', () => {
  const markdown = readFileSync(referencePath, 'utf8');
  const listed = referenceCommands(markdown);

  it('reads the reference tables', () => {
    expect(listed.size).toBeGreaterThan(120);
    expect(listed.get('VM.INVOKE_METHODS')).toBe(13);
    expect(listed.get('TYPE.RANK')).toBe(26);
  });

  it('has a codec or a reasoned not-supported entry for every command in the reference', () => {
    const missing = [...listed.keys()].filter(
      (name) => !(name in commands) && !(name in notSupported),
    );
    expect(missing).toEqual([]);
  });

  it('does not both implement and refuse a command', () => {
    expect(Object.keys(notSupported).filter((n) => n in commands)).toEqual([]);
    for (const reason of Object.values(notSupported)) expect(reason.length).toBeGreaterThan(10);
  });

  it('places every codec at the set and command number the reference gives', () => {
    for (const [name, def] of Object.entries(commands)) {
      expect(name.startsWith(`${def.set}.`), name).toBe(true);
      expect(listed.get(name), name).toBe(def.command);
      expect(CommandSet[def.set]).toBeGreaterThan(0);
    }
  });
});
