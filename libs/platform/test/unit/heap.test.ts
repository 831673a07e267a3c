import assert from 'node:assert/strict';
import { COMPOSE_SECRETS, ConfigError } from '../../src/index.js';
import { limitHeapGrowth } from '../../src/heap.js';

describe('limitHeapGrowth (HEAP_GROWING_PERCENT, ADR 2600)', () => {
  it('accepts the default, a whole percentage and 0 (V8 decides)', () => {
    limitHeapGrowth({});
    limitHeapGrowth({ HEAP_GROWING_PERCENT: '30' });
    limitHeapGrowth({ HEAP_GROWING_PERCENT: '0' });
  });

  it('refuses a value that is not a whole number from 0 to 1000, naming the variable', () => {
    for (const value of ['-1', '1.5', 'half', '1001'])
      assert.throws(
        () => limitHeapGrowth({ HEAP_GROWING_PERCENT: value }),
        (error: Error) => error instanceof ConfigError && /HEAP_GROWING_PERCENT/.test(error.message),
      );
  });

  it("reads only its own variable (a secret committed in compose is the service config's business)", () => {
    limitHeapGrowth({ HEAP_GROWING_PERCENT: '50', KEY_ENCRYPTION_SECRET: COMPOSE_SECRETS[0] });
  });
});
