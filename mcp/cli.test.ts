import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8' });

describe('unity-devtools', () => {
  it('prints its version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(
      execFileSync(process.execPath, ['--import', 'tsx', cli, '--version'], { encoding: 'utf8' }),
    ).toBe(`${pkg.version}\n`);
  });

  it('refuses what it does not offer yet, with a failing exit code', () => {
    const r = run('eval', '1+1');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown command "eval"/);
    expect(r.stdout).toBe('');
  });
});
