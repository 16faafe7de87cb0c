// `screenshot`: the game's frame as a PNG, returned inline as an image (bounded in size).

import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';

import { Errors, messageOf } from '../../unity/errors.js';
import { takeScreenshot } from '../../unity/screenshot.js';
import { costSchema } from '../schemas.js';
import { READS, defineTool } from '../tool.js';

export const screenshot = defineTool({
  name: 'screenshot',
  title: 'Screenshot',
  description:
    'The game renders its frame as a PNG; it is returned as an image, scaled so its longest ' +
    'edge is at most `max_size` pixels (default 1024), and also saved to `path` when given. A ' +
    'running local game is captured with ScreenCapture (UI included, lets a frame or two ' +
    'render); a held or remote game is rendered through Camera.main into a texture instead.',
  input: z.object({
    max_size: z.number().int().min(16).max(4096).optional().describe('longest edge, pixels'),
    path: z.string().min(1).optional().describe('also save the PNG here (relative to the server)'),
  }),
  output: z.object({
    width: z.number().int(),
    height: z.number().int(),
    source_width: z.number().int().describe('as the game rendered it'),
    source_height: z.number().int(),
    method: z.enum(['capture-file', 'render-texture']),
    bytes: z.number().int().describe('PNG size'),
    path: z.string().optional().describe('where it was saved'),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    const r = await takeScreenshot(session, {
      caller,
      ...(args.max_size !== undefined ? { maxSize: args.max_size } : {}),
    });
    const s = r.value;
    let saved: string | undefined;
    if (args.path !== undefined) {
      saved = resolve(args.path);
      await writeFile(saved, s.png).catch((e: unknown) => {
        throw Errors.invalidArgument(`cannot save the screenshot to ${saved}: ${messageOf(e)}`);
      });
    }
    return {
      text:
        `${s.width}x${s.height} PNG (game renders ${s.sourceWidth}x${s.sourceHeight}, by ${s.method})` +
        (saved ? `, saved to ${saved}` : ''),
      structured: {
        width: s.width,
        height: s.height,
        source_width: s.sourceWidth,
        source_height: s.sourceHeight,
        method: s.method,
        bytes: s.png.length,
        ...(saved ? { path: saved } : {}),
      },
      cost: r.cost,
      images: [{ data: s.png.toString('base64'), mimeType: 'image/png' }],
    };
  },
});

export const screenshotTools = [screenshot];
