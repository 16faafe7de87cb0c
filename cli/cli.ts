#!/usr/bin/env node
// The `unity-devtools` command. Every command is a thin front-end of the per-user broker
// (broker/), which owns discovery and every debugger connection: `mcp` (stdio; the default with
// a piped stdin) relays the MCP host's lines to it, and the commands for people (`status`,
// `eval`, `types`, `screenshot`, `logs`) call one tool through it. `broker` runs the broker in
// the foreground (`--status`, `--stop` ask a running one).
// stdout carries only the protocol (mcp) or the result (commands); diagnostics go to stderr.
// Exit codes: 0 success, 1 the tool failed (its code on stderr), 2 usage error.

import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { BrokerError } from '../broker/errors.js';
import type { PreambleTarget } from '../broker/preamble.js';

// The broker, the SDK and the tools are imported when a command needs them: `--version` and
// `--help` answer without loading them, and `mcp` (the relay) never loads them at all (its
// spawn → tools/list must stay under 300 ms).

/** package.json sits one level up from the sources and two from the compiled dist/cli/. */
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
  --verbose            diagnostics on stderr (always on for mcp)
The discovery and timeout options configure a broker this command starts; a broker already
running keeps its own (stop it with \`unity-devtools broker --stop\` to change them).`;

const BROKER_HELP = `  --status             print the running broker's state (exit 1 when none runs)
  --stop               stop the running broker: every game resumed and released
  --linger-ms <ms>     keep a game's connection this long after its callers left (60000;
                       env UNITY_DEVTOOLS_LINGER_MS)
  --idle-exit-ms <ms>  exit after this long with no front-end (600000;
                       env UNITY_DEVTOOLS_IDLE_EXIT_MS)
  --http <host:port>   also serve MCP over HTTP at http://host:port/mcp, behind a bearer token
                       written to <broker dir>/http-token (or env UNITY_DEVTOOLS_TOKEN); such
                       a broker does not exit when idle; an HTTP session quiet for 30 min
                       is closed (env UNITY_DEVTOOLS_HTTP_IDLE_MS)
  --allow-remote       let --http bind a non-loopback address: anyone who reaches it with the
                       token can run code in the game
The broker lives in UNITY_DEVTOOLS_HOME, else $XDG_RUNTIME_DIR/unity-devtools, else
~/.cache/unity-devtools (a directory only you can open: mode 0700).`;

const COMMANDS: Record<string, { usage: string; about: string; tool?: string }> = {
  mcp: {
    usage: 'mcp [target options]',
    about: 'serve MCP over stdio through the broker (the default with a piped stdin)',
  },
  broker: {
    usage: 'broker [--status | --stop] [--http <host:port> [--allow-remote]] [broker options]',
    about: 'run the per-user broker in the foreground (front-ends start it when none runs)',
  },
  dashboard: {
    usage: 'dashboard',
    about:
      "print a one-time link to the running broker's live dashboard, and open it where a " +
      'browser can (the broker serves it with --http)',
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

options of broker:
${BROKER_HELP}

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
  'linger-ms': { type: 'string' },
  'idle-exit-ms': { type: 'string' },
  http: { type: 'string' },
  'allow-remote': { type: 'boolean' },
  status: { type: 'boolean' },
  stop: { type: 'boolean' },
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

/** --player or --host/--port: where this front-end's calls go (the preamble's target). */
function target(v: Values): PreambleTarget | undefined {
  const port = int('port', v.port);
  if (v.host !== undefined && port === undefined)
    throw new UsageError('--host needs --port (the debugger agent port of the game)');
  if (v.player !== undefined && port !== undefined)
    throw new UsageError('give either --player or --host/--port, not both');
  if (port !== undefined) return { kind: 'endpoint', host: v.host ?? '127.0.0.1', port };
  if (v.player !== undefined) return { kind: 'player', selector: v.player };
  return undefined;
}

/** The discovery and timeout settings a front-end asks of the broker it starts. */
interface Settings {
  beaconPorts?: number[];
  multicast: boolean;
  parkTimeoutMs?: number;
  invokeTimeoutMs?: number;
}

function settings(v: Values): Settings {
  const beaconPorts = v['beacon-port']?.map((p) => int('beacon-port', p)!);
  const park = int('park-timeout-ms', v['park-timeout-ms']);
  const invoke = int('invoke-timeout-ms', v['invoke-timeout-ms']);
  return {
    ...(beaconPorts ? { beaconPorts } : {}),
    multicast: !v['no-multicast'],
    ...(park !== undefined ? { parkTimeoutMs: park } : {}),
    ...(invoke !== undefined ? { invokeTimeoutMs: invoke } : {}),
  };
}

/** `broker ...` arguments for a broker this front-end starts. */
function brokerArgs(v: Values): string[] {
  const s = settings(v);
  return [
    ...(s.beaconPorts ?? []).flatMap((p) => ['--beacon-port', String(p)]),
    ...(s.multicast ? [] : ['--no-multicast']),
    ...(s.parkTimeoutMs !== undefined ? ['--park-timeout-ms', String(s.parkTimeoutMs)] : []),
    ...(s.invokeTimeoutMs !== undefined ? ['--invoke-timeout-ms', String(s.invokeTimeoutMs)] : []),
  ];
}

/** What differs between the settings asked for and a running broker's (empty: none). */
function settingsDiffer(asked: Settings, theirs: Settings | undefined): string[] {
  if (!theirs) return [];
  const out: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (asked.beaconPorts && !same(asked.beaconPorts, theirs.beaconPorts))
    out.push(
      `--beacon-port ${asked.beaconPorts.join(',')} (broker: ${theirs.beaconPorts?.join(',') ?? "Unity's four"})`,
    );
  if (asked.multicast !== theirs.multicast)
    out.push(
      `multicast ${asked.multicast ? 'on' : 'off'} (broker: ${theirs.multicast ? 'on' : 'off'})`,
    );
  if (asked.parkTimeoutMs !== undefined && asked.parkTimeoutMs !== theirs.parkTimeoutMs)
    out.push(
      `--park-timeout-ms ${asked.parkTimeoutMs} (broker: ${theirs.parkTimeoutMs ?? 'default'})`,
    );
  if (asked.invokeTimeoutMs !== undefined && asked.invokeTimeoutMs !== theirs.invokeTimeoutMs)
    out.push(
      `--invoke-timeout-ms ${asked.invokeTimeoutMs} (broker: ${theirs.invokeTimeoutMs ?? 'default'})`,
    );
  return out;
}

const stderrLog =
  (prefix: string) =>
  (line: string): void => {
    process.stderr.write(`${prefix}: ${line}\n`);
  };

async function connectOptions(v: Values, kind: 'mcp' | 'cli') {
  const { ensureHome } = await import('../broker/home.js');
  const t = target(v);
  return {
    paths: ensureHome(),
    version: pkg.version,
    kind,
    ...(t ? { target: t } : {}),
    brokerArgs: brokerArgs(v),
    ...(kind === 'mcp' || v.verbose ? { log: stderrLog('unity-devtools') } : {}),
  };
}

/** `mcp`: the stdio relay; lives until stdin ends, a signal, or its parent's death. */
async function serve(v: Values): Promise<void> {
  const [{ Relay }, { connectOrSpawn }, { installLifetime }] = await Promise.all([
    import('../broker/front-end.js'),
    import('../broker/client.js'),
    import('../unity/lifetime.js'),
  ]);
  const opts = await connectOptions(v, 'mcp');
  const log = stderrLog('unity-devtools');
  const asked = settings(v);
  let warned = false;
  const relay = new Relay({
    input: process.stdin,
    output: process.stdout,
    connect: () => connectOrSpawn(opts),
    onLink: (link) => {
      const differ = settingsDiffer(asked, link.answer.settings);
      if (differ.length && !warned) {
        warned = true;
        log(
          `the running broker (pid ${link.answer.pid}) keeps its own settings, not these: ` +
            `${differ.join('; ')}; stop it (\`unity-devtools broker --stop\`) to change them`,
        );
      }
    },
    log,
  });
  installLifetime(() => relay.close(), { stdin: process.stdin, log });
  await relay.run();
}

/** `broker --status`'s games, a line each: who is attached and who holds it. */
function gamesText(games: unknown): string {
  const list = Array.isArray(games)
    ? (games as {
        id: string;
        endpoint: string;
        attached: boolean;
        callers: string[];
        holds: { caller: string; count: number }[];
        lingering?: boolean;
      }[])
    : [];
  return (
    `${list.length} game(s)${list.length ? ':' : ''}\n` +
    list
      .map(
        (g) =>
          `  ${g.id} ${g.endpoint}: ${g.attached ? 'attached' : 'not attached'}` +
          `${g.callers.length ? `, callers ${g.callers.join(', ')}` : ''}` +
          `${g.holds.length ? `, held by ${g.holds.map((h) => `${h.caller} x${h.count}`).join(', ')}` : ''}` +
          `${g.lingering ? ', no caller (freed when the linger period ends)' : ''}\n`,
      )
      .join('')
  );
}

function envInt(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
}

async function broker(v: Values, positionals: string[]): Promise<number> {
  if (positionals.length) throw new UsageError('broker takes no arguments');
  if (v.status && v.stop) throw new UsageError('give either --status or --stop, not both');
  if ((v.status || v.stop) && v.http !== undefined)
    throw new UsageError('--http starts a broker: give it without --status or --stop');
  if (v['allow-remote'] && v.http === undefined)
    throw new UsageError('--allow-remote is about --http: give --http <host:port> too');
  const { ensureHome } = await import('../broker/home.js');
  const paths = ensureHome();
  if (v.status || v.stop) {
    const { openBrokerClient, brokerStatus, brokerStop } = await import('../broker/cli-client.js');
    let c;
    try {
      c = await openBrokerClient({
        paths,
        version: pkg.version,
        kind: 'cli',
        brokerArgs: [],
        spawn: false,
      });
    } catch (e) {
      if (e instanceof BrokerError && e.code === 'BROKER_NOT_RUNNING') {
        process.stderr.write(`unity-devtools: no broker is running (${paths.socket})\n`);
        return v.stop ? 0 : 1;
      }
      throw e;
    }
    if (v.status) {
      const s = await brokerStatus(c.client);
      await c.close();
      process.stdout.write(
        v.json
          ? `${JSON.stringify(s, null, 2)}\n`
          : `broker pid ${s.pid} (${s.version}), up ${Math.round(s.uptime_ms / 1000)} s, at ${paths.socket}\n` +
              `${s.frontEnds.length} front-end(s):\n` +
              s.frontEnds
                .map(
                  (f) =>
                    `  ${f.kind} pid ${f.pid}${typeof f['client'] === 'string' ? ` (${f['client']})` : ''} since ${f.since}`,
                )
                .join('\n') +
              '\n' +
              (s.http
                ? `MCP over HTTP at ${s.http.url} (bearer token in ${s.http.tokenFile}), ` +
                  `${s.http.sessions.length} session(s)\n`
                : '') +
              gamesText(s.games),
      );
      return 0;
    }
    const pid = c.answer.pid;
    await brokerStop(c.client);
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000).unref());
    if ((await Promise.race([c.closed, timeout])) === 'timeout') {
      process.stderr.write(`unity-devtools: the broker (pid ${pid}) did not stop within 10 s\n`);
      return 1;
    }
    process.stderr.write(`unity-devtools: stopped the broker (pid ${pid})\n`);
    return 0;
  }
  if (target(v))
    throw new UsageError('the broker serves every game: give --player or --port to a front-end');
  const { runBroker, DEFAULT_IDLE_EXIT_MS, DEFAULT_LINGER_MS } =
    await import('../broker/broker.js');
  const http =
    v.http === undefined
      ? undefined
      : {
          ...(await import('../broker/http-server.js')).parseHttpAddress(v.http),
          allowRemote: v['allow-remote'] ?? false,
          ...(envInt('UNITY_DEVTOOLS_HTTP_IDLE_MS') !== undefined
            ? { sessionIdleMs: int('http-idle-ms', envInt('UNITY_DEVTOOLS_HTTP_IDLE_MS')) }
            : {}),
        };
  const code = await runBroker({
    paths,
    version: pkg.version,
    ...(http ? { http } : {}),
    ...settings(v),
    lingerMs:
      int('linger-ms', v['linger-ms'] ?? envInt('UNITY_DEVTOOLS_LINGER_MS')) ?? DEFAULT_LINGER_MS,
    idleExitMs:
      int('idle-exit-ms', v['idle-exit-ms'] ?? envInt('UNITY_DEVTOOLS_IDLE_EXIT_MS')) ??
      DEFAULT_IDLE_EXIT_MS,
    log: (line) =>
      process.stderr.write(`${new Date().toISOString()} unity-devtools broker: ${line}\n`),
    announce: (line) => process.stdout.write(`${line}\n`),
  });
  return code ?? -1;
}

/**
 * `dashboard`: a one-time login URL (valid 60 s, used once) from the running broker, printed,
 * and opened with the desktop's opener where there is a display (its failure is no error:
 * the printed URL is the result).
 */
async function dashboard(v: Values, positionals: string[]): Promise<number> {
  if (positionals.length) throw new UsageError('dashboard takes no arguments');
  const { ensureHome } = await import('../broker/home.js');
  const paths = ensureHome();
  const { openBrokerClient, brokerDashboardLogin } = await import('../broker/cli-client.js');
  let c;
  try {
    // never started here: a broker started by this command would serve no HTTP
    c = await openBrokerClient({
      paths,
      version: pkg.version,
      kind: 'cli',
      brokerArgs: [],
      spawn: false,
    });
  } catch (e) {
    if (e instanceof BrokerError && e.code === 'BROKER_NOT_RUNNING') {
      process.stderr.write(
        `unity-devtools: no broker is running (${paths.socket}); start one that serves the ` +
          'dashboard: `unity-devtools broker --http 127.0.0.1:<port>`\n',
      );
      return 1;
    }
    throw e;
  }
  let url: string;
  try {
    url = await brokerDashboardLogin(c.client);
  } finally {
    await c.close();
  }
  process.stdout.write(
    v.json ? `${JSON.stringify({ url })}\n` : `${url}\n(one-time link, valid for 60 s)\n`,
  );
  openInBrowser(url);
  return 0;
}

/** Opens `url` in the desktop's browser when there is a desktop; silent when it cannot. */
function openInBrowser(url: string): void {
  const opener =
    process.platform === 'darwin'
      ? 'open'
      : process.platform === 'win32'
        ? undefined // `start` needs a shell that would parse the URL: printing it is enough
        : process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']
          ? 'xdg-open'
          : undefined;
  if (!opener) return;
  void import('node:child_process').then(({ spawn }) => {
    try {
      const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
      child.on('error', () => undefined); // no opener installed: the URL is printed
      child.unref();
    } catch {
      // the same: printed is enough
    }
  });
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

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
  _meta?: unknown;
}

/** One tool called through the broker (started when none runs), printed. */
async function runCommand(command: string, positionals: string[], v: Values): Promise<number> {
  const spec = COMMANDS[command];
  if (!spec?.tool) throw new UsageError(`unknown command "${command}" (see --help)`);
  const args = toolArgs(command, positionals, v);
  const { openBrokerClient } = await import('../broker/cli-client.js');
  const c = await openBrokerClient({ ...(await connectOptions(v, 'cli')), spawn: true });
  try {
    const r = (await c.client.callTool({ name: spec.tool, arguments: args })) as ToolResult;
    const text = r.content.find((x) => x.type === 'text')?.text ?? '';
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
    await c.close();
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
      `usage: unity-devtools ${spec.usage}\n${spec.about}\n\noptions:\n${name === 'broker' ? BROKER_HELP : TARGET_HELP}\n`,
    );
    return 0;
  }
  try {
    if (name === 'mcp') {
      if (rest.length) throw new UsageError('mcp takes no arguments');
      await serve(values);
      return -1; // serving: the process lives until stdin closes or a signal
    }
    if (name === 'broker') return await broker(values, rest);
    if (name === 'dashboard') return await dashboard(values, rest);
    return await runCommand(name, rest, values);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`unity-devtools: ${e.message}\n`);
      return 2;
    }
    if (e instanceof BrokerError) {
      process.stderr.write(`unity-devtools: ${e.code}: ${e.message}\n`);
      return 1;
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
