import assert from 'node:assert/strict';
import { COMPOSE_SECRETS, ConfigError } from '../../src/index.js';
import { applyV8Settings, v8FlagsFor } from '../../src/v8-settings.js';

describe('applyV8Settings (HEAP_GROWING_PERCENT, WASM_TIER_UP: ADRs 2600, 2630, 2770)', () => {
  it('accepts the defaults, a whole percentage, 0 (V8 decides) and either WASM_TIER_UP', () => {
    applyV8Settings({});
    applyV8Settings({ HEAP_GROWING_PERCENT: '30' });
    applyV8Settings({ HEAP_GROWING_PERCENT: '0', WASM_TIER_UP: 'false' });
  });

  it('keeps WebAssembly at its baseline tier with every flag V8 13 needs for it, unless WASM_TIER_UP=true', () => {
    const wasm = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];
    assert.deepEqual(v8FlagsFor({}), ['--heap-growing-percent=50', ...wasm]);
    assert.deepEqual(v8FlagsFor({ HEAP_GROWING_PERCENT: '0', WASM_TIER_UP: 'false' }), wasm);
    assert.deepEqual(v8FlagsFor({ WASM_TIER_UP: 'true' }), ['--heap-growing-percent=50']);
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
