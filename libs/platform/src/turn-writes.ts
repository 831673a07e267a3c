import type { Writable } from 'node:stream';

const BATCHED = Symbol('esign.turnWritesBatched');

type Batchable = Writable & { [BATCHED]?: true };

/**
 * Makes every write that `stream` takes in one turn of the event loop leave in one
 * `writev` (ADR 2780): the first write of a turn corks the stream and the end of the turn
 * (`process.nextTick`) uncorks it, so nothing waits for a timer. amqplib's connection
 * writes each frame set (a publish, an ack) to its socket on its own, so a batch of
 * publishes or acks was one system call each, and one TCP segment each for the broker to
 * read. Answers false, and changes nothing, for a stream that was batched already.
 */
export const batchTurnWrites = (stream: Writable): boolean => {
  const target = stream as Batchable;
  if (target[BATCHED] === true) return false;
  const write = target.write.bind(target) as (...args: unknown[]) => boolean;
  let corked = false;
  const uncork = () => {
    corked = false;
    target.uncork();
  };
  const batched = (...args: unknown[]): boolean => {
    if (!corked) {
      corked = true;
      target.cork();
      process.nextTick(uncork);
    }
    return write(...args);
  };
  target.write = batched as Writable['write'];
  target[BATCHED] = true;
  return true;
};
