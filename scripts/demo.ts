// `npm run demo`: the main job end to end. Builds the bundled fixture game and the server, starts
// the game under Mono with its real debugger agent (announcing itself on a loopback beacon, as a
// Unity player does), then drives it through the MCP server exactly as an agent would: tools/list,
// status, eval, find_types, suspend/advance/resume, a screenshot saved to a file, the player log,
// an ECS query, and a breakpoint (wait, evaluate in the frame, step, resume).
// It leaves the game as it found it: holds released, debugger detached, game ended by pid.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildFixture } from '../fixtures/build.js';
import { freeLoopbackPort, startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { freeUdpPort } from '../test-integration/support/net.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function buildServer(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`building the server failed:\n${r.stdout}${r.stderr}`);
}

function textOf(r: CallToolResult): string {
  return r.content
    .map((c) =>
      c.type === 'text' ? c.text : `[${c.type} ${c.type === 'image' ? c.mimeType : ''}]`,
    )
    .join('\n');
}

async function main(): Promise<void> {
  console.log('Building the fixture game and the server...');
  await buildFixture();
  buildServer();
  const beaconPort = await freeUdpPort();
  let fixture: FixtureProcess | undefined;
  let client: Client | undefined;
  try {
    fixture = await startFixture({
      beaconPort,
      // Unity's beacon gives the debugger port as 56000 + Guid % 1000
      sdbPort: await freeLoopbackPort({ min: 56000, max: 56999 }),
    });
    console.log(
      `Fixture game running: pid ${fixture.pid}, debugger agent on 127.0.0.1:${fixture.sdbPort}, ` +
        `beacon to 127.0.0.1:${beaconPort}\n`,
    );

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        join(root, 'dist/cli/cli.js'),
        'mcp',
        '--beacon-port',
        String(beaconPort),
        '--no-multicast',
      ],
      stderr: 'inherit',
    });
    client = new Client({ name: 'demo-agent', version: '1.0.0' });
    const t0 = performance.now();
    await client.connect(transport);
    const { tools } = await client.listTools();
    console.log(
      `MCP server "${client.getServerVersion()?.name}" ready in ${(performance.now() - t0).toFixed(0)} ms; ` +
        `tools: ${tools.map((t) => t.name).join(', ')}\n`,
    );

    const c = client;
    const call = async (
      name: string,
      args: Record<string, unknown> = {},
    ): Promise<CallToolResult> => {
      const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
      const shown = Object.keys(args).length ? ` ${JSON.stringify(args)}` : '';
      console.log(`> ${name}${shown}${r.isError ? '   (failed, as expected)' : ''}`);
      console.log(
        textOf(r)
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n'),
      );
      return r;
    };

    await call('status');
    for (const code of [
      'Time.frameCount',
      'Game.Probe.SInt + 1',
      '"frame " + Time.frameCount + " at " + Time.time.ToString("F2") + " s"',
      'var v = new Vector3(1, 2, 3); v.x += 10; v',
      'em.Exists(entity(1))',
      'world.Name',
      'Game.Probe.SIntt',
    ])
      await call('eval', { code });
    await call('find_types', { query: 'Game.Shop', members: true });
    await call('suspend');
    await call('advance', { frames: 3, before: 'Time.frameCount', after: 'Time.frameCount' });
    await call('resume');
    const dir = join(tmpdir(), 'unity-devtools-demo');
    mkdirSync(dir, { recursive: true });
    await call('screenshot', { max_size: 320, path: join(dir, 'screenshot.png') });
    await call('eval', { code: 'Debug.LogWarning("hello from the demo")' });
    await call('logs', { level: 'warning', limit: 3 });
    // live ECS: a query with values for every entity found, in a few invokes
    await call('ecs_worlds');
    await call('ecs_query', { all: ['Velocity'], read: ['Velocity'], limit: 3 });
    // a breakpoint in a per-frame method: wait for the stop, look at the frame, resume
    const bp = await call('debug_set_breakpoint', { type: 'Game.DebugTargets', method: 'Step' });
    await call('debug_wait', { timeout_ms: 5000 });
    await call('debug_evaluate', { code: 'frame % 7' });
    await call('debug_step', { kind: 'over' });
    const id = (bp.structuredContent as { breakpoint?: { id?: number } } | undefined)?.breakpoint
      ?.id;
    if (id !== undefined) await call('debug_remove_breakpoint', { id });
    await call('debug_step', { kind: 'resume' });
    await call('detach');
    console.log('\nDone: the game runs on, its debugger slot free.');
  } finally {
    await client?.close(); // the server resumes, sends DISPOSE and exits when its stdin closes
    await fixture?.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
