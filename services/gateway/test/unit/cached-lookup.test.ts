import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { cachedLookup } from '../../src/application/cached-lookup.js';

/** A lookup whose answers the test releases by hand, counting the calls it gets. */
const controlledLookup = () => {
  const calls: string[] = [];
  const pending: Array<(answer: E.Either<string, string>) => void> = [];
  const lookup =
    (key: string): TE.TaskEither<string, string> =>
    () => {
      calls.push(key);
      return new Promise((resolve) => pending.push(resolve));
    };
  return { calls, lookup, release: (answer: E.Either<string, string>) => pending.shift()!(answer) };
};

describe('gateway: cached lookups', () => {
  it('shares one lookup among concurrent callers for the same key', async () => {
    const { calls, lookup, release } = controlledLookup();
    const cached = cachedLookup(lookup, { ttlMs: 5000, clock: { now: () => new Date(0) }, maxEntries: 10 });
    const answers = Promise.all([cached('a')(), cached('a')(), cached('a')()]);
    release(E.right('A'));
    assert.deepEqual(await answers, [E.right('A'), E.right('A'), E.right('A')]);
    assert.deepEqual(calls, ['a']);
  });

  it('reuses an answer until its time, counted from when it was asked, is up', async () => {
    let now = 1000;
    const { calls, lookup, release } = controlledLookup();
    const cached = cachedLookup(lookup, { ttlMs: 5000, clock: { now: () => new Date(now) }, maxEntries: 10 });
    const first = cached('a')();
    now = 1500; // the answer arrives late
    release(E.right('A1'));
    await first;
    now = 5999;
    assert.deepEqual(await cached('a')(), E.right('A1'));
    now = 6000;
    const second = cached('a')();
    release(E.right('A2'));
    assert.deepEqual(await second, E.right('A2'));
    assert.deepEqual(calls, ['a', 'a']);
  });

  it('never keeps a failure and never reuses with a zero time to live', async () => {
    const { calls, lookup, release } = controlledLookup();
    const cached = cachedLookup(lookup, { ttlMs: 5000, clock: { now: () => new Date(0) }, maxEntries: 10 });
    const failed = cached('a')();
    release(E.left('down'));
    assert.deepEqual(await failed, E.left('down'));
    const retried = cached('a')();
    release(E.right('A'));
    assert.deepEqual(await retried, E.right('A'));

    const uncached = cachedLookup(lookup, { ttlMs: 0, clock: { now: () => new Date(0) }, maxEntries: 10 });
    for (const answer of ['x', 'y']) {
      const call = uncached('b')();
      release(E.right(answer));
      assert.deepEqual(await call, E.right(answer));
    }
    assert.deepEqual(calls, ['a', 'a', 'b', 'b']);
  });

  it('stays within its size, dropping expired entries first, then the oldest', async () => {
    let now = 0;
    const calls: string[] = [];
    const cached = cachedLookup(
      (key: string) => {
        calls.push(key);
        return TE.right(key.toUpperCase());
      },
      { ttlMs: 100, clock: { now: () => new Date(now) }, maxEntries: 2 },
    );
    await cached('a')();
    now = 50;
    await cached('b')();
    await cached('c')(); // full: 'a' is the oldest and goes
    await cached('b')();
    await cached('c')();
    await cached('a')();
    assert.deepEqual(calls, ['a', 'b', 'c', 'a']);
  });
});
