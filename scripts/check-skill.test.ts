import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { ALL_TOOLS } from '../mcp/tools/index.js';
import { blocksOf, checkSkill, errorCodesIn } from './check-skill.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKILL_DIR = 'plugin/skills/drive-unity-game';
const skill = readFileSync(path.join(root, SKILL_DIR, 'SKILL.md'), 'utf8');
/** The tools' codes and the front-end's own (a dead broker, an unsafe home). */
const codes = [
  ...errorCodesIn(readFileSync(path.join(root, 'unity/errors.ts'), 'utf8')),
  ...errorCodesIn(readFileSync(path.join(root, 'broker/errors.ts'), 'utf8'), 'BrokerErrorCode'),
];
/** `_` is eval's previous value, a name of programs, not of tools. */
const programNames = ['_'];

function check(text: string): string[] {
  return checkSkill({ text, tools: ALL_TOOLS, codes, programNames });
}

describe('the drive-unity-game skill', () => {
  it('names only tools, arguments, result fields and error codes that exist', () => {
    expect(check(skill)).toEqual([]);
  });

  it('checks enough of the text to matter: calls, fields and codes', () => {
    const spans = [...skill.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    expect(spans.filter((s) => / \{.*\}$/.test(s)).length).toBeGreaterThan(15);
    expect(spans.filter((s) => /^[A-Z][A-Z_]+$/.test(s)).length).toBeGreaterThan(20);
  });

  it('has the front matter both Claude Code and Codex read: name (its folder) and description', () => {
    const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(skill);
    expect(front?.[1]).toBe(path.basename(SKILL_DIR));
    expect(front![2]!.length).toBeLessThanOrEqual(1024); // Codex refuses longer ones
  });

  it('uses `_` only because eval documents it', () => {
    expect(ALL_TOOLS.find((t) => t.name === 'eval')?.description).toContain('`_`');
  });

  it('is the one text Codex reads in this repository: .agents/skills links to it', () => {
    expect(realpathSync(path.join(root, '.agents/skills/drive-unity-game'))).toBe(
      realpathSync(path.join(root, SKILL_DIR)),
    );
  });
});

describe('checkSkill', () => {
  it('refuses a tool that does not exist', () => {
    expect(check('Then `debug_continue {kind: "resume"}`.')).toEqual([
      expect.stringContaining('no tool is named debug_continue'),
    ]);
  });

  it('refuses arguments the tool would refuse: unknown keys, wrong types, missing ones', () => {
    expect(check('`undo {dryrun: true}`')).toEqual([
      expect.stringContaining('undo has no argument dryrun'),
    ]);
    expect(check('`debug_wait {timeout_ms: "soon"}`')).toEqual([
      expect.stringContaining('debug_wait refuses'),
    ]);
    expect(check('`debug_step {}`')).toEqual([expect.stringContaining('kind')]);
    expect(check('`undo {dry_run: true,}`')).toEqual([expect.stringContaining('not an object')]);
  });

  it('accepts a valid call, with strings holding colons and commas', () => {
    expect(check('`attach {host: "127.0.0.1", port: 56123}`')).toEqual([]);
    expect(check('`eval {code: "var a = 1, b: 2"}`')).toEqual(
      check('`eval {code: "x"}`'), // the string's `, b:` is not a key
    );
  });

  it('checks a bare argument against the tools named in the same block only', () => {
    expect(check('- `ecs_destroy_entity` needs\n  `confirm: true`.')).toEqual([]);
    expect(check('- `ecs_destroy_entity` needs\n\n`confirm: true`.')).toEqual([
      expect.stringContaining('neither a tool nor a field'),
    ]);
    expect(check('`logs` takes `timeout_ms`')).toEqual([
      expect.stringContaining('not an argument or result field of logs'),
    ]);
    expect(check('`debug_wait` returns `stopped`')).toEqual([]);
  });

  it('refuses an error code the catalogue does not have', () => {
    expect(check('`NO_PLAYER` and `NO_GAME`')).toEqual([
      expect.stringContaining('`NO_GAME`: not an error code'),
    ]);
  });

  it('splits paragraphs, bullets, steps and table rows into blocks', () => {
    expect(blocksOf('a\nb\n\n- c\n  d\n1. e\n| f |\n| g |\n# h\ni')).toEqual([
      'a b',
      '- c   d',
      '1. e',
      '| f |',
      '| g |',
      '# h',
      'i',
    ]);
  });

  it('reads every code of the catalogue', () => {
    expect(codes).toContain('NO_PLAYER');
    expect(codes).toContain('CONFIRM_REQUIRED');
    expect(codes).toContain('INTERNAL');
  });
});
