// `logs`: the player's log, new entries since a cursor, filtered.

import { z } from 'zod';

import { readPlayerLog } from '../../unity/player-log.js';
import { costSchema, fallbackSchema } from '../schemas.js';
import { READS, clip, defineTool } from '../tool.js';

const LEVELS = ['exception', 'error', 'assert', 'warning', 'log'] as const;
/** One entry's text in a result: a log line with a 2 MB message must not flood the agent. */
const ENTRY_CHARS = 2000;

export const logs = defineTool({
  name: 'logs',
  title: 'Player log',
  description:
    "The game's Player.log (its path read from the game, mapped into the Wine prefix for a " +
    'game under Proton): entries since `since` (the `cursor` of an earlier call; from the start ' +
    'without it), at `level` or more severe, matching `pattern` (a case-insensitive regex), the ' +
    'newest `limit` of them (default 100).',
  input: z.object({
    since: z.string().min(1).optional().describe('cursor from an earlier call'),
    level: z.enum(LEVELS).optional().describe('this level and more severe'),
    pattern: z.string().min(1).max(1000).optional().describe('case-insensitive regex'),
    limit: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe('newest entries to return (default 100); 0 returns just a cursor: "from now on"'),
  }),
  output: z.object({
    path: z.string().describe('the file read on this machine'),
    game_path: z.string().describe('the path as the game reports it (a Windows path under Proton)'),
    entries: z.array(
      z.object({
        level: z.string(),
        message: z.string(),
        stack_trace: z.string().optional(),
        line: z.number().int(),
      }),
    ),
    cursor: z.string().describe('pass as `since` to get only newer entries'),
    skipped: z.number().int().describe('matching entries left out by `limit` (older ones)'),
    restarted: z.boolean().describe('the log was replaced since the cursor (game restarted)'),
    omitted_bytes: z
      .number()
      .int()
      .describe('new bytes not read (more than 4 MiB were new): their entries are missing'),
    fallback: fallbackSchema,
    cost: costSchema,
  }),
  annotations: READS,
  // the first call on a connection reads the log's path with an invoke (a window)
  tier: 'smooth',
  run: async (args, { session, playerLog, caller }) => {
    const r = await readPlayerLog(session, playerLog, {
      caller,
      ...(args.since !== undefined ? { since: args.since } : {}),
      ...(args.level !== undefined ? { level: args.level } : {}),
      ...(args.pattern !== undefined ? { pattern: args.pattern } : {}),
      ...(args.limit !== undefined ? { limit: args.limit } : {}),
    });
    const v = r.value;
    const entries = v.entries.map((e) => ({
      level: e.level,
      message: clip(e.message, ENTRY_CHARS),
      ...(e.stackTrace ? { stack_trace: clip(e.stackTrace, ENTRY_CHARS) } : {}),
      line: e.line,
    }));
    const head =
      `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} from ${v.path}` +
      (v.skipped ? ` (${v.skipped} older matching ones left out)` : '') +
      (v.restarted ? ' (the log was replaced: the game restarted)' : '') +
      (v.omittedBytes ? ` (${v.omittedBytes} bytes of older entries not read)` : '') +
      `; next cursor: ${v.cursor}`;
    const body = entries.map((e) => `[${e.level}] ${e.message}`);
    const note = v.fallback !== undefined ? [`fallback: ${v.fallback}`] : [];
    return {
      text: [head, ...body, ...note].join('\n'),
      structured: {
        path: v.path,
        game_path: v.gamePath,
        entries,
        cursor: v.cursor,
        skipped: v.skipped,
        restarted: v.restarted,
        omitted_bytes: v.omittedBytes,
        ...(v.fallback !== undefined ? { fallback: v.fallback } : {}),
      },
      cost: r.cost,
    };
  },
});

export const logTools = [logs];
