import assert from 'node:assert/strict';

/** An answer's body as the codec's type, after checking it has that shape. */
export const is = <A>(codec: { is: (u: unknown) => u is A }, value: unknown): A => {
  assert.ok(codec.is(value), `unexpected shape: ${JSON.stringify(value)}`);
  return value;
};

/** The fields a problem's `errors` name, in order. */
export const pathsOf = (body: unknown): string[] =>
  (body as { errors: { path: string }[] }).errors.map((e) => e.path);
