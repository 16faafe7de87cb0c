import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8' });

// each case spawns the CLI through tsx (1-2 s apiece on a loaded machine)
describe('unity-devtools', { timeout: 60_000 }, () => {
  it('prints its version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(
      execFileSync(process.execPath, ['--import', 'tsx', cli, '--version'], { encoding: 'utf8' }),
    ).toBe(`${pkg.version}\n`);
  });

  it('refuses an unknown command and bad usage with exit code 2, nothing on stdout', () => {
    const unknown = run('nope');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "nope"/);
    expect(unknown.stdout).toBe('');
    const missing = run('eval');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/eval needs a C# program/);
    const flag = run('status', '--bogus');
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(/bogus/);
    const port = run('eval', '1', '--port', 'x');
    expect(port.status).toBe(2);
    expect(port.stderr).toMatch(/--port takes an integer/);
  });

  it('explains every command with --help', () => {
    const help = run('--help');
    expect(help.status).toBe(0);
    for (const c of ['mcp', 'broker', 'dashboard', 'status', 'eval', 'types', 'screenshot', 'logs'])
      expect(help.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
    const evalHelp = run('eval', '--help');
    expect(evalHelp.status).toBe(0);
    expect(evalHelp.stdout).toMatch(/^usage: unity-devtools eval <code>/);
  });
});
