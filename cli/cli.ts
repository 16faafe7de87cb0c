#!/usr/bin/env node
// The `unity-devtools` command: the MCP server over stdio (no arguments with a non-TTY stdin, or
// `mcp`), and the same tools for people (`status`, `eval`, `types`, `screenshot`, `logs`).
// stdout carries only the protocol (server) or the result (commands); diagnostics go to stderr.
// Exit codes: 0 success, 1 the tool failed (its code on stderr), 2 usage error.

import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { installLifetime } from '../unity/lifetime.js';
import type { GameAppOptions } from './app.js';
import type { Tool } from './tool.js';

// The server, the SDK and the tools are imported when a command needs them: `--version` and
// `--help` answer without loading them (about a second on a slow machine).

/** package.json sits one level up from the sources and two from the compiled dist/mcp/. */
function readPackage(): { version: string } {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version: string;
      };
      if (pkg.name === 'unity-devtools') return pkg;
    } catch {
      // not this level
    }
  }
  return { version: 'unknown' };
}

const pkg = readPackage();

const TARGET_HELP = `  --player <selector>  a player heard on the beacon (key, label, project name or host:port)
  --host <host>        debugger host of a game no beacon describes (default 127.0.0.1)
  --port <port>        debugger agent port
  --beacon-port <n>    listen for beacons on this UDP port (repeatable; default Unity's four)
  --no-multicast       do not join Unity's multicast group (unicast beacons only)
  --park-timeout-ms <ms>   how long to wait for the main thread to reach managed code (2000)
  --invoke-timeout-ms <ms> bound on one call run in the game (10000)
  --json               print the structured result as JSON
  --verbose            diagnostics on stderr (always on for mcp)`;

const COMMANDS: Record<string, { usage: string; about: string; tool?: string }> = {
  mcp: {
    usage: 'mcp [target options]',
    about: 'serve MCP over stdio (the default with a piped stdin)',
  },
  status: {
    usage: 'status',
    about: 'players heard, the session, discovery problems',
    tool: 'status',
  },
  eval: {
    usage: 'eval <code>',
    about: 'run a C# program in the game and print its value',
    tool: 'eval',
  },
  types: {
    usage: 'types <query> [--members] [--inherited] [--limit <n>]',
    about: 'find loaded types by name, glob or /regex/, optionally with members',
    tool: 'find_types',
  },
  screenshot: {
    usage: 'screenshot <file.png> [--max-size <px>]',
    about: 'save the game frame as a PNG',
    tool: 'screenshot',
  },
  logs: {
    usage: 'logs [--since <cursor>] [--level <level>] [--pattern <regex>] [--limit <n>]',
    about: "print the player's log entries",
    tool: 'logs',
  },
};

const HELP = `unity-devtools ${pkg.version}: drive a running Unity (Mono) development build over the
Mono Soft Debugger protocol.

usage: unity-devtools <command> [options]
       unity-devtools            (with a piped stdin: the MCP server, as \`mcp\`)

commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}\n      ${c.about}`)
  .join('\n')}

options for every command:
${TARGET_HELP}
  --help, --version

Run \`unity-devtools <command> --help\` for one command.`;

class UsageError extends Error {}

const OPTIONS = {
  player: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'beacon-port': { type: 'string', multiple: true },
  'no-multicast': { type: 'boolean' },
  'park-timeout-ms': { type: 'string' },
  'invoke-timeout-ms': { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  members: { type: 'boolean' },
  inherited: { type: 'boolean' },
  limit: { type: 'string' },
  'max-size': { type: 'string' },
  since: { type: 'string' },
  level: { type: 'string' },
  pattern: { type: 'string' },
} satisfies ParseArgsConfig['options'];

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

function int(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n)) throw new UsageError(`--${name} takes an integer, got "${text}"`);
  return n;
}

function appOptions(v: Values, server = false): GameAppOptions {
  const port = int('port', v.port);
  if (v.host !== undefined && port === undefined)
    throw new UsageError('--host needs --port (the debugger agent port of the game)');
  if (v.player !== undefined && port !== undefined)
    throw new UsageError('give either --player or --host/--port, not both');
  const beaconPorts = v['beacon-port']?.map((p) => int('beacon-port', p)!);
  return {
    ...(port !== undefined ? { endpoint: { host: v.host ?? '127.0.0.1', port } } : {}),
    ...(v.player !== undefined ? { player: v.player } : {}),
    ...(beaconPorts ? { beaconPorts } : {}),
    ...(v['no-multicast'] ? { multicast: false } : {}),
    ...(v['park-timeout-ms'] !== undefined
      ? { parkTimeoutMs: int('park-timeout-ms', v['park-timeout-ms'])! }
      : {}),
    ...(v['invoke-timeout-ms'] !== undefined
      ? { invokeTimeoutMs: int('invoke-timeout-ms', v['invoke-timeout-ms'])! }
      : {}),
    ...(server || v.verbose
      ? { log: (line: string) => process.stderr.write(`unity-devtools: ${line}\n`) }
      : {}),
  };
}

function toolArgs(command: string, positionals: string[], v: Values): Record<string, unknown> {
  const [first, ...rest] = positionals;
  const need = (what: string): string => {
    if (first === undefined) throw new UsageError(`${command} needs ${what}`);
    if (rest.length) throw new UsageError(`${command} takes one ${what}; quote it`);
    return first;
  };
  switch (command) {
    case 'status':
      return {};
    case 'eval':
      return { code: need('a C# program') };
    case 'types':
      return {
        query: need('a query'),
        ...(v.members ? { members: true } : {}),
        ...(v.inherited ? { inherited: true } : {}),
        ...(v.limit !== undefined ? { limit: int('limit', v.limit) } : {}),
      };
    case 'screenshot':
      return {
        path: need('a file name'),
        ...(v['max-size'] !== undefined ? { max_size: int('max-size', v['max-size']) } : {}),
      };
    case 'logs':
      return {
        ...(v.since !== undefined ? { since: v.since } : {}),
        ...(v.level !== undefined ? { level: v.level } : {}),
        ...(v.pattern !== undefined ? { pattern: v.pattern } : {}),
        ...(v.limit !== undefined ? { limit: int('limit', v.limit) } : {}),
      };
    default:
      throw new UsageError(`unknown command "${command}" (see --help)`);
  }
}

async function serve(v: Values): Promise<void> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { createServer } = await import('./server.js');
  const { GameApp } = await import('./app.js');
  const app = await GameApp.start(appOptions(v, true));
  installLifetime(() => app.close(), {
    stdin: process.stdin,
    log: (m) => process.stderr.write(`unity-devtools: ${m}\n`),
  });
  const server = createServer(app, pkg.version);
  await server.connect(new StdioServerTransport());
}

async function runCommand(command: string, positionals: string[], v: Values): Promise<number> {
  const spec = COMMANDS[command];
  const [{ ALL_TOOLS }, { callTool }, { GameApp }] = await Promise.all([
    import('./tools/index.js'),
    import('./server.js'),
    import('./app.js'),
  ]);
  const tool = ALL_TOOLS.find((t: Tool) => t.name === spec?.tool);
  if (!tool) throw new UsageError(`unknown command "${command}" (see --help)`);
  const args = toolArgs(command, positionals, v);
  const app = await GameApp.start(appOptions(v));
  const uninstall = installLifetime(() => app.close(), { parentPid: 0 });
  try {
    const r = await callTool(tool, args, { app, caller: 'cli' });
    const text = r.content.find((c) => c.type === 'text')?.text ?? '';
    if (r.isError) {
      if (v.json) process.stdout.write(`${JSON.stringify({ error: r._meta }, null, 2)}\n`);
      process.stderr.write(`${text}\n`);
      return 1;
    }
    process.stdout.write(
      v.json ? `${JSON.stringify(r.structuredContent, null, 2)}\n` : `${text}\n`,
    );
    return 0;
  } finally {
    uninstall();
    await app.close();
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-v') {
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    process.stderr.write(`unity-devtools: ${(e as Error).message} (see --help)\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (command === undefined) {
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    if (process.stdin.isTTY) {
      process.stderr.write(`${HELP}\n`);
      return 2;
    }
  }
  const name = command ?? 'mcp';
  if (values.help) {
    const spec = COMMANDS[name];
    if (!spec) {
      process.stderr.write(`unity-devtools: unknown command "${name}" (see --help)\n`);
      return 2;
    }
    process.stdout.write(
      `usage: unity-devtools ${spec.usage}\n${spec.about}\n\noptions:\n${TARGET_HELP}\n`,
    );
    return 0;
  }
  try {
    if (name === 'mcp') {
      if (rest.length) throw new UsageError('mcp takes no arguments');
      await serve(values);
      return -1; // serving: the process lives until stdin closes or a signal
    }
    return await runCommand(name, rest, values);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`unity-devtools: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(
      `unity-devtools: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    process.exitCode = 1;
  },
);
