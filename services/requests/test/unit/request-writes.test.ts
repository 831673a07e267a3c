import assert from 'node:assert/strict';
import { insertEvents, sql } from '@esign/platform/database';
import { composeStatement, oneStatement } from '../../src/adapters/postgres/request-writes.js';

/** Writes of the kinds a create's statement nests: plain values, an unnest, JSON, a nested fragment. */
const writes = (n: number, shape: 'create' | 'other') => [
  sql.fragment`INSERT INTO a (id, label) VALUES (${n}, ${`label ${n}`})`,
  sql.fragment`
    INSERT INTO b (id, position, name)
    SELECT ${n}, position, name
    FROM ${sql.unnest(
      Array.from({ length: (n % 3) + 1 }, (_, i) => [i, `name ${n}.${i}`]),
      ['int2', 'text'],
    )} AS s(position, name)`,
  shape === 'create'
    ? sql.fragment`INSERT INTO c (id, data) VALUES (${n}, ${sql.jsonb({ n, list: [n, String(n)] })})`
    : sql.fragment`UPDATE c SET data = ${sql.jsonb({ n })} WHERE id = ${n}`,
  insertEvents([{ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, type: 'thing.made' }], {
    handedOff: n % 2 === 0,
  }),
];

describe('requests: a statement of several writes, composed once per shape (ADR 2870)', () => {
  it('gives the text and values slonik composes, on the first call of a shape and every later one', () => {
    for (let n = 1; n <= 12; n++) {
      for (const shape of ['create', 'other'] as const) {
        const expected = composeStatement(writes(n, shape));
        const actual = oneStatement(writes(n, shape));
        assert.equal(actual.sql, expected.sql);
        assert.deepEqual(actual.values, expected.values);
        assert.equal(actual.type, expected.type);
      }
    }
  });

  it('keeps shapes apart: other writes, fewer writes or one write compose their own text', () => {
    const create = oneStatement(writes(1, 'create'));
    const other = oneStatement(writes(1, 'other'));
    const fewer = oneStatement(writes(1, 'create').slice(1));
    const single = oneStatement(writes(1, 'create').slice(0, 1));
    assert.notEqual(create.sql, other.sql);
    assert.notEqual(create.sql, fewer.sql);
    assert.equal(fewer.sql, composeStatement(writes(1, 'create').slice(1)).sql);
    assert.equal(single.sql, composeStatement(writes(1, 'create').slice(0, 1)).sql);
    assert.deepEqual(single.values, [1, 'label 1']);
  });

  it('refuses no writes at all', () => {
    assert.throws(() => oneStatement([]), /at least one write/);
  });
});
