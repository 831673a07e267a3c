import assert from 'node:assert/strict';
import { COMPOSE_SECRETS, ConfigError } from '../../src/index.js';
import { applyV8Settings, v8FlagsFor } from '../../src/v8-settings.js';

describe('applyV8Settings (HEAP_GROWING_PERCENT, WASM_TIER_UP, MAGLEV_INLINING: ADRs 2600, 2630, 2770, 2840)', () => {
  it('accepts the defaults, a whole percentage, 0 (V8 decides), either WASM_TIER_UP and MAGLEV_INLINING=true', () => {
    applyV8Settings({});
    applyV8Settings({ HEAP_GROWING_PERCENT: '30' });
    applyV8Settings({ HEAP_GROWING_PERCENT: '0', WASM_TIER_UP: 'false' });
    applyV8Settings({ MAGLEV_INLINING: 'true' });
  });

  it('keeps WebAssembly at its baseline tier with every flag V8 13 needs for it, unless WASM_TIER_UP=true', () => {
    const wasm = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];
    const maglev = ['--no-maglev-inlining'];
    assert.deepEqual(v8FlagsFor({}), ['--heap-growing-percent=50', ...wasm, ...maglev]);
    assert.deepEqual(v8FlagsFor({ HEAP_GROWING_PERCENT: '0', WASM_TIER_UP: 'false' }), [...wasm, ...maglev]);
    assert.deepEqual(v8FlagsFor({ WASM_TIER_UP: 'true' }), ['--heap-growing-percent=50', ...maglev]);
  });

  it('keeps Maglev from inlining unless MAGLEV_INLINING=true', () => {
    assert.deepEqual(v8FlagsFor({ HEAP_GROWING_PERCENT: '0', WASM_TIER_UP: 'true' }), [
      '--no-maglev-inlining',
    ]);
    assert.deepEqual(
      v8FlagsFor({ HEAP_GROWING_PERCENT: '0', WASM_TIER_UP: 'true', MAGLEV_INLINING: 'true' }),
      [],
    );
  });

  it('refuses a value that is not a whole number from 0 to 1000, naming the variable', () => {
    for (const value of ['-1', '1.5', 'half', '1001'])
      assert.throws(
        () => applyV8Settings({ HEAP_GROWING_PERCENT: value }),
        (error: Error) => error instanceof ConfigError && /HEAP_GROWING_PERCENT/.test(error.message),
      );
  });

  it('refuses a WASM_TIER_UP or MAGLEV_INLINING that is not true or false, naming the variable', () => {
    for (const name of ['WASM_TIER_UP', 'MAGLEV_INLINING'])
      assert.throws(
        () => applyV8Settings({ [name]: 'sometimes' }),
        (error: Error) => error instanceof ConfigError && error.message.includes(name),
      );
  });

  it("reads only its own variables (a secret committed in compose is the service config's business)", () => {
    applyV8Settings({ HEAP_GROWING_PERCENT: '50', KEY_ENCRYPTION_SECRET: COMPOSE_SECRETS[0] });
  });
});
