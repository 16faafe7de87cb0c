// Four agents on one live game (issue 13): four real MCP front-ends of one broker, 200 mixed calls
// each at once (reads, evals that write, ECS writes, holds, breakpoints, advances, status). No
// call is lost (each gets its reply), none is applied twice: every agent increments a counter of
// the fixture with `Game.Control.Counter++` (a read and a write of a static: two agents' windows
// must never interleave), repeating a failed increment with the same request_id until it has an
// outcome, and the counter ends exactly at the number of increments asked for. Every failure
// carries a code of the catalogue.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { errorCodesIn } from '../scripts/check-skill.js';
import { brokerHome, startServer, stopBroker, type ServerUnderTest } from './support/mcp-client.js';

const AGENTS = 4;
const CALLS = 200;
/** Every INCREMENT_EVERY-th call of an agent is an increment. */
const INCREMENT_EVERY = 8;
const PROGRAM = 'Game.Probe.SInt';
const EXPECTED = '-123456789';

const CODES = new Set([
  ...errorCodesIn(readFileSync(new URL('../unity/errors.ts', import.meta.url), 'utf8')),
  ...errorCodesIn(
    readFileSync(new URL('../broker/errors.ts', import.meta.url), 'utf8'),
    'BrokerErrorCode',
  ),
]);

let fixture: FixtureProcess;
let home: string;
const agents: ServerUnderTest[] = [];

beforeAll(async () => {
  fixture = await startFixture({ entities: 200 });
  home = brokerHome();
  for (let i = 0; i < AGENTS; i++)
    agents.push(await startServer(['--port', String(fixture.sdbPort)], { home }));
}, 60_000);

afterAll(async () => {
  for (const a of agents) await a.close().catch(() => undefined);
  if (home) await stopBroker(home).catch(() => undefined);
  await fixture?.stop();
});

interface Outcome {
  ok: boolean;
  code?: string;
  text: string;
  structured: Record<string, unknown> | undefined;
  replayed: boolean;
}

async function call(a: ServerUnderTest, name: string, args: Record<string, unknown> = {}) {
  const r = await a.call(name, args);
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  const meta = (r._meta ?? {}) as Record<string, unknown>;
  const o: Outcome = {
    ok: !r.isError,
    text,
    structured: r.structuredContent,
    replayed: meta.replayed === true,
  };
  if (r.isError) o.code = String(meta.code);
  return o;
}

const counter = async (a: ServerUnderTest): Promise<number> =>
  Number((await a.ok<{ value: string }>('eval', { code: 'Game.Control.Counter' })).value);

describe('four agents, 200 mixed calls each, on one game', () => {
  it('lose no call, apply no write twice, and fail only with catalogue codes', async () => {
    const first = agents[0]!;
    const q = await first.ok<{ entities: { index: number; version: number }[] }>('ecs_query', {
      all: ['Unit'],
      limit: AGENTS,
    });
    const entities = q.entities.map((e) => `${e.index}:${e.version}`);
    expect(entities).toHaveLength(AGENTS);
    const start = await counter(first);

    const failures: { agent: number; tool: string; code: string | undefined; text: string }[] = [];
    const replies = Array.from({ length: AGENTS }, () => 0);
    const increments = Array.from({ length: AGENTS }, () => 0);
    const lastLevel: (number | undefined)[] = Array.from({ length: AGENTS }, () => undefined);

    async function agentRun(n: number): Promise<void> {
      const a = agents[n]!;
      const entity = entities[n]!;
      const note = (tool: string, o: Outcome): Outcome => {
        replies[n]!++;
        if (!o.ok) failures.push({ agent: n, tool, code: o.code, text: o.text });
        return o;
      };
      for (let i = 0; i < CALLS; i++) {
        switch (i % INCREMENT_EVERY) {
          case 0: {
            // an increment: repeated with the same request_id until it has an outcome
            const request_id = `agent-${n}-inc-${i}`;
            for (let attempt = 0; ; attempt++) {
              const o = note(
                'eval',
                await call(a, 'eval', { code: 'Game.Control.Counter++', request_id }),
              );
              if (o.ok) break;
              if (attempt === 4)
                throw new Error(`agent ${n}: increment ${i} never applied: ${o.text}`);
            }
            increments[n]!++;
            break;
          }
          case 1: {
            const o = note('eval', await call(a, 'eval', { code: PROGRAM }));
            if (o.ok) expect(o.structured?.value).toBe(EXPECTED);
            break;
          }
          case 2:
            note(
              'ecs_get_component',
              await call(a, 'ecs_get_component', { entity, component: 'Unit' }),
            );
            break;
          case 3: {
            const level = 1 + ((i * 7 + n) % 90);
            const o = note(
              'ecs_set_component',
              await call(a, 'ecs_set_component', {
                entity,
                component: 'Unit',
                field: 'Stats.Level',
                value: level,
                request_id: `agent-${n}-level-${i}`,
              }),
            );
            if (o.ok) lastLevel[n] = level;
            break;
          }
          case 4: {
            const held = note('suspend', await call(a, 'suspend'));
            note('eval', await call(a, 'eval', { code: PROGRAM }));
            if (held.ok) note('resume', await call(a, 'resume'));
            break;
          }
          case 5: {
            const o = note(
              'debug_set_breakpoint',
              await call(a, 'debug_set_breakpoint', {
                type: 'Game.DebugTargets',
                method: 'StartWorker',
              }),
            );
            const id = (o.structured?.breakpoint as { id?: number } | undefined)?.id;
            if (id !== undefined)
              note('debug_remove_breakpoint', await call(a, 'debug_remove_breakpoint', { id }));
            break;
          }
          case 6: {
            const o = note('advance', await call(a, 'advance', { frames: 1 }));
            if (o.ok) expect(o.structured?.frames_advanced as number).toBeGreaterThanOrEqual(1);
            break;
          }
          default:
            note(
              'status',
              await call(
                a,
                i % 16 === 7 ? 'status' : 'find_types',
                i % 16 === 7 ? {} : { query: 'Probe' },
              ),
            );
        }
      }
    }

    await Promise.all(agents.map((_, n) => agentRun(n)));

    // every call had its reply; every failure is a code of the catalogue
    for (const n of replies.keys()) expect(replies[n]).toBeGreaterThanOrEqual(CALLS);
    for (const f of failures) expect(CODES, `${f.tool}: ${f.text}`).toContain(f.code);
    // none applied twice, none lost
    const asked = increments.reduce((x, y) => x + y, 0);
    expect(asked).toBe(AGENTS * Math.ceil(CALLS / INCREMENT_EVERY));
    expect(await counter(first)).toBe(start + asked);
    // each agent's last ECS write is what the game holds
    for (const [n, entity] of entities.entries()) {
      const r = await first.ok<{ value: { Stats: { Level: number } } }>('ecs_get_component', {
        entity,
        component: 'Unit',
      });
      expect(r.value.Stats.Level).toBe(lastLevel[n]);
    }
    // report what failed, for the record (the test holds only to the codes)
    if (failures.length > 0)
      console.log(
        `failures: ${failures.length}: ${[...new Set(failures.map((f) => `${f.tool} ${f.code}`))].join(', ')}`,
      );
  }, 600_000);
});
