import busboy from 'busboy';
import coBody from 'co-body';
import type Koa from 'koa';

export type FormFields = Readonly<Record<string, string>>;

/** Forms are small but an HTML template may be up to 500 000 characters. */
const FORM_LIMIT = '2mb';

/** An urlencoded form body; every value a string (repeated names keep the last). */
export const readForm = async (ctx: Koa.Context): Promise<FormFields> => {
  const parsed: unknown = await coBody.form(ctx, { limit: FORM_LIMIT, queryString: { depth: 0 } });
  const out: Record<string, string> = {};
  if (typeof parsed === 'object' && parsed !== null)
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
      if (typeof last === 'string') out[key] = last;
    }
  return out;
};

export interface Upload {
  readonly fields: FormFields;
  readonly file: { readonly name: string; readonly bytes: Buffer; readonly truncated: boolean } | undefined;
}

/** A multipart form with at most one file (a PDF, a CSV file), bounded in size. */
export const readUpload = (ctx: Koa.Context, fileLimitBytes: number, maxFields = 20): Promise<Upload> =>
  new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: Upload['file'];
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        limits: { files: 1, fileSize: fileLimitBytes, fields: maxFields, fieldSize: 10_000 },
      });
    } catch (error) {
      reject(Object.assign(error as Error, { status: 400 }));
      return;
    }
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        file = {
          name: info.filename,
          bytes: Buffer.concat(chunks),
          truncated: (stream as unknown as { truncated?: boolean }).truncated === true,
        };
      });
    });
    parser.on('error', reject);
    parser.on('close', () => resolve({ fields, file }));
    ctx.req.pipe(parser);
  });
