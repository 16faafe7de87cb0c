import { describe, expect, it } from 'vitest';

import { memoryPair } from './memory-transport.js';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('memoryPair', () => {
  it('delivers on a later turn, in order, the writes of one turn as one chunk', async () => {
    const [a, b] = memoryPair();
    const got: string[] = [];
    b.onData((chunk) => got.push(chunk.toString()));
    a.write(Buffer.from('one '));
    a.write(Buffer.from('two'));
    expect(got).toEqual([]);
    await turn();
    a.write(Buffer.from('three'));
    await turn();
    expect(got).toEqual(['one two', 'three']);
  });

  it('copies what it is given: the writer may reuse its buffer', async () => {
    const [a, b] = memoryPair();
    const got: string[] = [];
    b.onData((chunk) => got.push(chunk.toString()));
    const buf = Buffer.from('abc');
    a.write(buf);
    buf.write('xyz');
    await turn();
    expect(got).toEqual(['abc']);
  });

  it('on end, delivers what was written, then closes both ends once, with no cause', async () => {
    const [a, b] = memoryPair();
    const events: string[] = [];
    b.onData((chunk) => events.push(`b got ${chunk.toString()}`));
    a.onClose((cause) => events.push(`a closed ${String(cause)}`));
    b.onClose((cause) => events.push(`b closed ${String(cause)}`));
    a.write(Buffer.from('last'));
    a.end();
    a.write(Buffer.from('dropped'));
    b.write(Buffer.from('also dropped'));
    await turn();
    await turn();
    expect(events.sort()).toEqual(['a closed undefined', 'b closed undefined', 'b got last']);
  });

  it('on destroy, drops what this end had not read and still delivers what it wrote', async () => {
    const [a, b] = memoryPair();
    const gotA: string[] = [];
    const gotB: string[] = [];
    a.onData((chunk) => gotA.push(chunk.toString()));
    b.onData((chunk) => gotB.push(chunk.toString()));
    b.write(Buffer.from('unread'));
    a.write(Buffer.from('sent'));
    a.destroy();
    let closed = 0;
    a.onClose(() => closed++);
    b.onClose(() => closed++);
    await turn();
    await turn();
    expect([gotA, gotB, closed]).toEqual([[], ['sent'], 2]);
  });

  it('tells a listener that subscribes after the close', async () => {
    const [a] = memoryPair();
    a.destroy();
    await turn();
    const late = await new Promise((resolve) => a.onClose(resolve));
    expect(late).toBeUndefined();
  });
});
