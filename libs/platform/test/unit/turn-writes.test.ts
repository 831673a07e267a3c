import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { batchTurnWrites } from '../../src/turn-writes.js';

/** A stream that records how its writes reach the "socket": one entry per system call. */
const recorder = () => {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      calls.push([chunk.toString()]);
      callback();
    },
    writev(chunks, callback) {
      calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      callback();
    },
  });
  return { stream, calls };
};

describe('platform: a turn’s writes leave in one writev (ADR 2780)', () => {
  it('without it, each write of a turn is a call of its own (the case the batching is for)', async () => {
    const { stream, calls } = recorder();
    for (const frame of ['a', 'b', 'c']) stream.write(frame);
    await nextTurn();
    assert.deepEqual(calls, [['a'], ['b'], ['c']]);
  });

  it('writes made in one turn reach the stream as one writev, in order', async () => {
    const { stream, calls } = recorder();
    assert.equal(batchTurnWrites(stream), true);
    for (const frame of ['a', 'b', 'c']) stream.write(frame);
    assert.deepEqual(calls, [], 'nothing leaves before the turn ends');
    await nextTurn();
    assert.deepEqual(calls, [['a', 'b', 'c']]);
  });

  it('each turn is its own batch, and a lone write still leaves at the end of its turn', async () => {
    const { stream, calls } = recorder();
    batchTurnWrites(stream);
    stream.write('a');
    stream.write('b');
    await nextTurn();
    stream.write('c');
    await nextTurn();
    assert.deepEqual(calls, [['a', 'b'], ['c']]);
    assert.equal(stream.writableCorked, 0, 'uncorked between turns');
  });

  it('keeps write’s answer and callback, and batching twice changes nothing', async () => {
    const { stream, calls } = recorder();
    batchTurnWrites(stream);
    assert.equal(batchTurnWrites(stream), false);
    const written: string[] = [];
    assert.equal(
      stream.write('a', () => written.push('a')),
      true,
    );
    stream.write('b', 'utf8', () => written.push('b'));
    await nextTurn();
    assert.deepEqual(calls, [['a', 'b']]);
    assert.deepEqual(written, ['a', 'b']);
    assert.equal(stream.writableCorked, 0);
  });
});
