import assert from 'node:assert/strict';
import { COMPOSE_SECRETS, ConfigError } from '../../src/index.js';
import { applyV8Settings, heapGrowthNote, knowsHeapGrowingPercent } from '../../src/v8-settings.js';

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

  it('says at start when V8 has no --heap-growing-percent: a warning if set, a note if the default', () => {
    const [node20, node22, node24] = ['11.3.244.8-node.38', '12.4.254.21-node.57', '13.6.233.17-node.53'];
    assert.equal(knowsHeapGrowingPercent(node20), true);
    assert.equal(knowsHeapGrowingPercent(node22), true);
    assert.equal(knowsHeapGrowingPercent(node24), false);
    assert.equal(heapGrowthNote({}, node20), undefined);
    assert.equal(heapGrowthNote({ HEAP_GROWING_PERCENT: '30' }, node22), undefined);
    assert.equal(heapGrowthNote({ HEAP_GROWING_PERCENT: '0' }, node24), undefined);
    assert.equal(heapGrowthNote({}, node24)?.level, 'info');
    const set = heapGrowthNote({ HEAP_GROWING_PERCENT: '30' }, node24);
    assert.equal(set?.level, 'warn');
    assert.match(set?.message ?? '', /HEAP_GROWING_PERCENT has no effect: V8 13\.6\.233\.17-node\.53/);
  });
});
