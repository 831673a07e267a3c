import * as t from 'io-ts';

const Bytes = new t.Type<Uint8Array, Uint8Array, unknown>(
  'Bytes',
  (u): u is Uint8Array => u instanceof Uint8Array,
  (u, c) => (u instanceof Uint8Array ? t.success(u) : t.failure(u, c)),
  t.identity,
);

export const PdfWorkerInput = t.type({ pdf: Bytes, maxDecodedBytes: t.number });
export type PdfWorkerInput = t.TypeOf<typeof PdfWorkerInput>;

const TemplateFieldCodec = t.union([
  t.type({ name: t.string, type: t.literal('text'), maxLength: t.union([t.number, t.null]) }),
  t.type({ name: t.string, type: t.literal('checkbox') }),
  t.type({ name: t.string, type: t.literal('choice'), options: t.readonlyArray(t.string) }),
  t.type({ name: t.string, type: t.literal('signature') }),
]);

/** What the PDF worker posts back: the fields, or why the file is refused. */
export const PdfWorkerAnswer = t.union([
  t.type({ _tag: t.literal('Fields'), fields: t.readonlyArray(TemplateFieldCodec) }),
  t.type({
    _tag: t.literal('Refused'),
    reason: t.keyof({ unreadable: null, too_large: null }),
    message: t.string,
  }),
]);
export type PdfWorkerAnswer = t.TypeOf<typeof PdfWorkerAnswer>;
