// Schema pieces several tools share.

import { z } from 'zod';

export const costSchema = z
  .object({
    wire_commands: z.number().int().describe('SDB commands sent'),
    invokes: z.number().int().describe('methods run on the main thread'),
    freeze_ms: z.number().describe('how long the game was suspended by this call'),
    wall_ms: z.number().describe('time the call took'),
    queue_ms: z.number().describe('of wall_ms, how long the call waited for its turn at the game'),
    queued_behind: z
      .number()
      .int()
      .describe("other callers' (or your own earlier) operations that ran while it waited"),
  })
  .describe('what the call cost in the game');

/** A fast path failed and a slower one answered: the result is right, and says why it was slow. */
export const fallbackSchema = z
  .string()
  .optional()
  .describe('the fast path failed and a slower one answered: why (the server log records it too)');

export const sessionSchema = z.object({
  attached: z.boolean(),
  target: z.string().describe('"auto", "player <selector>" or "endpoint <host:port>"'),
  endpoint: z.string().optional(),
  player: z.string().optional().describe('the chosen player, when it came from discovery'),
  protocol: z.string().optional().describe("the debugger agent's SDB protocol version"),
  runtime: z.string().optional(),
  holds: z
    .array(z.object({ caller: z.string(), count: z.number().int() }))
    .describe('who keeps the game suspended across calls'),
  operations: z.array(z.object({ caller: z.string(), label: z.string() })),
  connects: z.number().int(),
  pending: z
    .boolean()
    .optional()
    .describe(
      'our connection waits in the agent behind another debugger: used when that one leaves',
    ),
  replaced: z
    .object({ expected: z.string(), found: z.string() })
    .optional()
    .describe('another game answers at the endpoint: writes are refused'),
  last_drop: z.string().optional(),
});

export const targetArgs = {
  player: z
    .string()
    .min(1)
    .optional()
    .describe('a player heard on the beacon: key, guid, label, project name or host:port'),
  host: z
    .string()
    .min(1)
    .optional()
    .describe('debugger host, when no beacon describes the game (default 127.0.0.1)'),
  port: z.number().int().min(1).max(65535).optional().describe('debugger agent port'),
};
