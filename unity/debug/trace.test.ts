import { describe, expect, it } from 'vitest';

import { parseLogMessage, renderMessage, TraceStore } from './trace.js';

describe('parseLogMessage', () => {
  it('splits text and holes, with {{ }} as braces and braces inside holes kept', () => {
    expect(parseLogMessage('hp={hp}, pos={transform.position} {{x}}')).toEqual([
      { text: 'hp=' },
      { code: 'hp' },
      { text: ', pos=' },
      { code: 'transform.position' },
      { text: ' {x}' },
    ]);
    expect(parseLogMessage('{new int[] { 1, 2 }.Length}{"}"}')).toEqual([
      { code: 'new int[] { 1, 2 }.Length' },
      { code: '"}"' },
    ]);
  });

  it('refuses an unclosed, empty or unopened hole', () => {
    expect(() => parseLogMessage('x={hp')).toThrow(/not closed/);
    expect(() => parseLogMessage('x={ }')).toThrow(/empty/);
    expect(() => parseLogMessage('x=}')).toThrow(/closes no hole/);
  });

  it('renders failed holes as their error', () => {
    const parts = parseLogMessage('a={a} b={b}');
    expect(renderMessage(parts, [{ text: '1' }, { error: 'no b' }])).toBe('a=1 b=<error: no b>');
  });
});

describe('TraceStore', () => {
  it('keeps the newest entries per breakpoint, counts the dropped, reads by cursor', () => {
    const s = new TraceStore(3);
    for (let i = 0; i < 5; i++)
      s.record({ breakpointId: 1, time: i, threadId: 9, message: `m${i}` });
    s.record({ breakpointId: 2, time: 9, threadId: 9, message: 'other' });
    const one = s.read({ breakpointId: 1 });
    expect(one.entries.map((e) => e.message)).toEqual(['m2', 'm3', 'm4']);
    expect(one.dropped).toEqual([{ breakpointId: 1, count: 2 }]);
    const all = s.read({ since: one.entries[1]!.seq });
    expect(all.entries.map((e) => e.message)).toEqual(['m4', 'other']);
    expect(s.read({ limit: 1 }).entries.map((e) => e.message)).toEqual(['m2']);
  });
});
