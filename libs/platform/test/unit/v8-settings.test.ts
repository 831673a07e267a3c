import assert from 'node:assert/strict';
import { COMPOSE_SECRETS, ConfigError } from '../../src/index.js';
import { applyV8Settings } from '../../src/v8-settings.js';

describe('applyV8Settings (HEAP_GROWING_PERCENT, WASM_TIER_UP: ADRs 2600, 2630)', () => {
  it('accepts the defaults, a whole percentage, 0 (V8 decides) and either WASM_TIER_UP', () => {
    applyV8Settings({});
    applyV8Settings({ HEAP_GROWING_PERCENT: '30' });
    applyV8Settings({ HEAP_GROWING_PERCENT: '0', WASM_TIER_UP: 'false' });
  });

  it('refuses a value that is not a whole number from 0 to 1000, naming the variable', () => {
    for (const value of ['-1', '1.5', 'half', '1001'])
      assert.throws(
        () => applyV8Settings({ HEAP_GROWING_PERCENT: value }),
        (error: Error) => error instanceof ConfigError && /HEAP_GROWING_PERCENT/.test(error.message),
      );
  });

  it('refuses a WASM_TIER_UP that is not true or false, naming the variable', () => {
    assert.throws(
      () => applyV8Settings({ WASM_TIER_UP: 'sometimes' }),
      (error: Error) => error instanceof ConfigError && /WASM_TIER_UP/.test(error.message),
    );
  });

  it("reads only its own variables (a secret committed in compose is the service config's business)", () => {
    applyV8Settings({ HEAP_GROWING_PERCENT: '50', KEY_ENCRYPTION_SECRET: COMPOSE_SECRETS[0] });
  });
});
