// The MCP server: tools/list and tools/call over the tool list. Built on the SDK's low-level
// Server so that argument errors, like every other failure, are tool results with a stable code
// (INVALID_ARGUMENT naming the field) rather than protocol errors; protocol errors are kept for
// protocol misuse (an unknown tool).

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { UnityError, messageOf } from '../unity/errors.js';
import { inToolCall, type Target } from '../unity/session/session.js';
import type { GameApp } from './app.js';
import { costFields, costText } from './cost.js';
import {
  answerAsJob,
  jobReplySchema,
  noJob,
  type CallRequest,
  type Job,
  type JobHooks,
} from './jobs.js';
import type { CallTrail } from './ledger/ledger.js';
import { createTask, registerTaskHandlers, TASKS_CAPABILITY } from './tasks.js';
import { toolContext, type Tool, type ToolCall } from './tool.js';
import { ALL_TOOLS } from './tools/index.js';

export const SERVER_NAME = 'unity';

/** A tool as tools/list shows it (also what docs/tools.md and the schema baseline are made of). */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  outputSchema: { type: 'object'; [k: string]: unknown };
  annotations: Tool['annotations'] & { title: string };
  /** Heavy tools run as MCP tasks for clients that ask (tools/call `task`). */
  execution?: { taskSupport: 'optional' };
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): { type: 'object' } {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out as { type: 'object' };
}

/**
 * The argument every tool that goes to a game takes besides its own (Tool.routing): which game.
 * The dispatcher reads it; the tool never sees it.
 */
export const playerArgument = z
  .string()
  .min(1)
  .optional()
  .describe(
    'which game this call goes to: a game id from status (g1), a player (key, label, project ' +
      'name) or host:port; default: the game you attached to, else the one visible player',
  );

/** Whether a tool goes to a game, and so takes the dispatcher's `player` besides its own arguments. */
export function takesPlayer(t: Tool): boolean {
  return (t.routing ?? 'game') !== 'none';
}

/**
 * The argument every tool that changes the game takes (Tool.writes): the agent's name for this
 * write, so that a retry returns the first outcome instead of applying it twice (mcp/ledger).
 */
export const requestIdArgument = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    'your unique name for this write (a UUID): a retry with the same request_id and arguments ' +
      'returns the first outcome without running again, for 24 h and across restarts; the same ' +
      'id with other arguments is IDEMPOTENCY_CONFLICT',
  );

/** Whether a tool takes the dispatcher's `request_id`. */
export function takesRequestId(t: Tool): boolean {
  return t.writes !== undefined;
}

/**
 * The argument every heavy tool takes (Tool.tier): how long the call may take before it is
 * answered with a job id instead (mcp/jobs.ts).
 */
export const waitArgument = z
  .number()
  .int()
  .min(0)
  .max(600_000)
  .default(20_000)
  .describe(
    'answer within this many ms: a call still running then returns {job, status: "running", ' +
      'progress} and goes on (job_wait, job_status, job_cancel take the job); 0: a job at once',
  );

/** Whether a tool takes the dispatcher's `wait_ms` (heavy tools: they run as jobs). */
export function takesWait(t: Tool): boolean {
  return t.tier === 'heavy';
}

/**
 * A call's arguments split into the dispatcher's `player`, `request_id` and `wait_ms` and the
 * tool's own (`problem`: why one of those given is refused).
 */
export function splitPlayer(
  t: Tool,
  args: unknown,
): { player?: string; requestId?: string; waitMs?: number; own: unknown } | { problem: string } {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { own: args };
  const own = { ...(args as Record<string, unknown>) };
  const out: { player?: string; requestId?: string; waitMs?: number } = {};
  for (const [key, takes, schema, set] of [
    ['player', takesPlayer(t), playerArgument, (v: string) => (out.player = v)],
    ['request_id', takesRequestId(t), requestIdArgument, (v: string) => (out.requestId = v)],
    ['wait_ms', takesWait(t), waitArgument, (v: number) => (out.waitMs = v)],
  ] as const) {
    if (!takes || !(key in own)) continue;
    const p = (schema as z.ZodType<string | number | undefined>).safeParse(own[key]);
    if (!p.success)
      return { problem: `${key}: ${p.error.issues.map((i) => i.message).join('; ')}` };
    if (p.data !== undefined) (set as (v: string | number) => void)(p.data);
    delete own[key];
  }
  return { ...out, own };
}

/** The game a call goes to, by the tool's routing (Tool.routing). */
async function gameOfCall(t: Tool, call: ToolCall, player: string | undefined) {
  const routing = t.routing ?? 'game';
  if (routing === 'none') return undefined;
  if (routing === 'selected' && player === undefined) return call.app.selectedGame(call.caller);
  return call.app.gameFor(call.caller, player);
}

function inputSchema(t: Tool): ListedTool['inputSchema'] {
  const schema = jsonSchema(t.input, 'input') as ListedTool['inputSchema'];
  const properties = { ...((schema.properties ?? {}) as Record<string, unknown>) };
  if (takesPlayer(t)) properties.player = jsonSchema(playerArgument, 'input');
  if (takesRequestId(t)) properties.request_id = jsonSchema(requestIdArgument, 'input');
  if (takesWait(t)) properties.wait_ms = jsonSchema(waitArgument, 'input');
  return { ...schema, properties };
}

/** A heavy tool answers its result, or a job reply when it outlives wait_ms: either validates. */
function outputSchema(t: Tool): ListedTool['outputSchema'] {
  const own = jsonSchema(t.output, 'output');
  if (!takesWait(t)) return own;
  return { type: 'object', anyOf: [own, jsonSchema(jobReplySchema, 'output')] };
}

export function listTools(tools: readonly Tool[] = ALL_TOOLS): ListedTool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputSchema(t),
    outputSchema: outputSchema(t),
    annotations: { title: t.title, ...t.annotations },
    ...(takesWait(t) ? { execution: { taskSupport: 'optional' as const } } : {}),
  }));
}

/** The field-by-field reasons a schema refused the arguments. */
function argumentProblems(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`)
    .join('; ');
}

export function errorResult(e: unknown): CallToolResult {
  const err = e instanceof UnityError ? e : new UnityError('INTERNAL', messageOf(e), { cause: e });
  const lines = [`${err.code}: ${err.message}`];
  if (err.suggestions?.length) lines.push(`did you mean: ${err.suggestions.join(', ')}`);
  const stack = err.details?.stackTrace;
  if (typeof stack === 'string' && stack) lines.push(stack);
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    // no structuredContent: clients validate it against the success schema
    _meta: {
      code: err.code,
      ...(err.suggestions?.length ? { suggestions: err.suggestions } : {}),
      ...(err.details ? { details: err.details } : {}),
    },
  };
}

/**
 * Runs one tool call: arguments checked, failures as results with a stable code; once per
 * request_id for the tools that take one, and every call in the audit log (mcp/ledger).
 */
export async function callTool(
  tool: Tool,
  rawArgs: unknown,
  call: ToolCall,
): Promise<CallToolResult> {
  // a heavy call runs as a job (mcp/jobs.ts): answered within its wait_ms, else by a job id;
  // the job's own call (call.job set) is the one audited, when it ends
  if (takesWait(tool) && call.job === undefined) return callAsJob(tool, rawArgs, call);
  const trail = call.app.ledger.begin(tool, call.caller);
  return trail.end(await dispatch(tool, rawArgs, call, trail));
}

async function dispatch(
  tool: Tool,
  rawArgs: unknown,
  call: ToolCall,
  trail: CallTrail,
): Promise<CallToolResult> {
  const split = splitPlayer(tool, rawArgs ?? {});
  if ('problem' in split)
    return errorResult(
      new UnityError('INVALID_ARGUMENT', `invalid arguments for ${tool.name}: ${split.problem}`),
    );
  const parsed = tool.input.safeParse(split.own);
  if (!parsed.success) {
    return errorResult(
      new UnityError(
        'INVALID_ARGUMENT',
        `invalid arguments for ${tool.name}: ${argumentProblems(parsed.error)}`,
      ),
    );
  }
  trail.accepted(parsed.data, split.player, split.requestId);
  return trail
    .once(async () => {
      try {
        // the scheduler learns the call's tier from here (queue_status; an instant tool's window)
        const job = call.job;
        const out = await inToolCall(
          tool.name,
          tool.tier,
          async () => {
            const game = await gameOfCall(tool, call, split.player);
            trail.reached(game);
            return tool.run(parsed.data, toolContext(call, game));
          },
          // a job's progress says where its operations wait in line
          job ? (position) => job.progress({ queuePosition: position }) : undefined,
        );
        trail.cost(out.cost);
        const extras = (out.structured as { cost?: object }).cost;
        return {
          content: [
            { type: 'text', text: `${out.text}\n${costText(out.cost)}` },
            ...(out.images ?? []).map((i) => ({ type: 'image' as const, ...i })),
          ],
          structuredContent: { ...out.structured, cost: { ...costFields(out.cost), ...extras } },
        };
      } catch (e) {
        return errorResult(e);
      }
    })
    .catch(errorResult);
}

/** The wait a heavy call's arguments ask for; undefined when dispatch refuses them. */
function waitOf(tool: Tool, rawArgs: unknown): number | undefined {
  const split = splitPlayer(tool, rawArgs ?? {});
  if ('problem' in split || !tool.input.safeParse(split.own).success) return undefined;
  return split.waitMs ?? waitArgument.parse(undefined);
}

/** A heavy call: refused at once when its arguments are (no job), else run as a job. */
async function callAsJob(tool: Tool, rawArgs: unknown, call: ToolCall): Promise<CallToolResult> {
  const run = (job: JobHooks) => callTool(tool, rawArgs, { ...call, job });
  const waitMs = waitOf(tool, rawArgs);
  if (waitMs === undefined) return run(noJob());
  return answerAsJob(call.app.jobs, tool.name, call.caller, call.request, waitMs, (job) =>
    run(job.hooks()),
  );
}

/** Starts a heavy call as a job at once, for an MCP task (a refusal: a job that failed). */
function startJob(tool: Tool, rawArgs: unknown, call: ToolCall): Job {
  return call.app.jobs.start(tool.name, call.caller, (job) =>
    callTool(tool, rawArgs, { ...call, job: job.hooks() }),
  );
}

/** Who is on the other end of one MCP connection, as its front-end told the broker. */
export interface FrontEnd {
  /** The front-end's process id (the caller is labelled with it). */
  pid?: number;
  /** `mcp`: a stdio front-end an MCP host started; `cli`: one command of the CLI. */
  kind: 'mcp' | 'cli';
  /** Where this caller's calls go until it attaches or names a player (its --player/--port). */
  target?: Target;
}

/**
 * One MCP server per connection: its calls are one caller's, labelled with the client's name
 * (from initialize) and the front-end's pid. When the connection closes, the caller is gone:
 * its holds are released, its pauses resumed and its breakpoints removed.
 */
export function createServer(app: GameApp, version: string, frontEnd?: FrontEnd): Server {
  const server = new Server(
    { name: SERVER_NAME, title: 'Unity (Mono debugger)', version },
    {
      capabilities: { tools: {}, tasks: TASKS_CAPABILITY },
      instructions:
        'Drives a running Unity development build (Mono) over its debugger. Start with `status`; ' +
        'game calls attach by themselves to the one visible player. `eval` runs C# in the game. ' +
        'Every result reports what it cost the game (invokes, freeze).',
    },
  );
  const listed = listTools();
  const byName = new Map(ALL_TOOLS.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool "${request.params.name}"; tools: ${[...byName.keys()].join(', ')}`,
      );
    const token = request.params._meta?.progressToken;
    const call: ToolCall & { request: CallRequest } = {
      app,
      caller: callerId(),
      request: {
        signal: extra.signal,
        ...(token !== undefined
          ? {
              sendProgress: (p) =>
                extra.sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, ...p },
                }),
            }
          : {}),
      },
    };
    const task = request.params.task;
    if (task === undefined) return callTool(tool, request.params.arguments, call);
    if (!takesWait(tool))
      throw new McpError(
        ErrorCode.InvalidParams,
        `${tool.name} does not run as a task (execution.taskSupport is forbidden): call it without task`,
      );
    return createTask(app.jobs, startJob(tool, request.params.arguments, call), task, call.request);
  });
  registerTaskHandlers(server, app.jobs, () => callerId());
  let caller: string | undefined;
  const callerId = (): string => {
    if (caller === undefined) {
      const client = server.getClientVersion()?.name ?? frontEnd?.kind ?? 'client';
      caller = app.openCaller({
        label: frontEnd?.pid !== undefined ? `${client} (pid ${frontEnd.pid})` : `mcp:${client}`,
        ...(frontEnd?.target ? { target: frontEnd.target } : {}),
      });
    }
    return caller;
  };
  server.onclose = () => {
    if (caller !== undefined) void app.closeCaller(caller);
  };
  return server;
}
