// The conventions every tool keeps, checked over the whole list: annotations from the one set
// of presets (so that two tools that behave alike say so alike), and a cost in every result
// written by callTool from the tool's one OperationCost.

import { describe, expect, it } from 'vitest';

import { GameApp } from './app.js';
import { callTool } from './server.js';
import { ANNOTATION_PRESETS } from './tool.js';
import { ALL_TOOLS } from './tools/index.js';

describe('every tool', () => {
  it('takes its annotations from the presets in tool.ts, never an object of its own', () => {
    const adHoc = ALL_TOOLS.filter((t) => !ANNOTATION_PRESETS.includes(t.annotations));
    expect(adHoc.map((t) => t.name)).toEqual([]);
  });

  it('declares a cost in its output schema', () => {
    const without = ALL_TOOLS.filter((t) => !('cost' in t.output.shape));
    expect(without.map((t) => t.name)).toEqual([]);
  });
});

describe('callTool', () => {
  it('writes the cost once given into the text and the structured result', async () => {
    const app = await GameApp.start({ discovery: false });
    try {
      const status = ALL_TOOLS.find((t) => t.name === 'status')!;
      const r = await callTool(status, {}, { app, caller: 'test' });
      const cost = (r.structuredContent as { cost: Record<string, number> }).cost;
      expect(Object.keys(cost).sort()).toEqual([
        'freeze_ms',
        'invokes',
        'queue_ms',
        'queued_behind',
        'wall_ms',
        'wire_commands',
      ]);
      expect(cost).toMatchObject({ wire_commands: 0, invokes: 0, freeze_ms: 0, queue_ms: 0 });
      const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
      expect(text.split('\n').at(-1)).toBe(
        `cost: 0 wire commands, 0 invokes, game frozen 0 ms, ${cost.wall_ms} ms wall`,
      );
    } finally {
      await app.close();
    }
  });
});
