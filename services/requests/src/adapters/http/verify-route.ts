import { problem } from '@esign/contracts';
import {
  HttpProblem,
  invalidBody,
  payloadTooLarge,
  readRawBody,
  runWith,
  type AppState,
} from '@esign/platform';
import type Router from '@koa/router';
import type { Verification } from '../../application/verify-executed.js';
import type { UseCases } from '../../application/use-cases.js';
import { problemOf } from './problems.js';

/** Public: anyone holding a file may ask. The gateway rate-limits it by client address. */
export const VERIFY_PATH = '/v1.1/verify';

/** The most this service reads; the gateway's BODY_LIMIT_BYTES is usually the tighter bound. */
export const VERIFY_LIMIT_BYTES = 50 * 1024 * 1024;

const run = runWith(problemOf);

const tooLarge = () => payloadTooLarge(`The PDF is larger than ${VERIFY_LIMIT_BYTES} bytes.`);

export const verificationView = (v: Verification) =>
  v.status === 'valid'
    ? {
        status: v.status,
        file_sha256: v.fileSha256,
        request_id: v.requestId,
        completed_at: v.completedAt,
        sealed_at: v.sealedAt,
        timestamped_at: v.timestampedAt,
        certificate_sha256: v.certificateSha256,
        document_sha256: v.documentSha256,
        contracts: v.contracts.map((c) => ({ name: c.name, sha256: c.sha256 })),
        signers: v.signers.map((s) => ({
          signer_id: s.signerId,
          action: s.action,
          typed_name: s.typedName,
          at: s.at,
        })),
      }
    : v.status === 'modified'
      ? { status: v.status, file_sha256: v.fileSha256, request_id: v.requestId }
      : { status: v.status, file_sha256: v.fileSha256 };

/** `POST /v1.1/verify` with the PDF as the body (`Content-Type: application/pdf`). */
export const mountVerifyRoute = (router: Router<AppState>, cases: Pick<UseCases, 'verifyExecuted'>): void => {
  router.post(VERIFY_PATH, async (ctx) => {
    if (ctx.request.is('application/pdf', 'application/octet-stream') === false)
      throw new HttpProblem(
        problem({
          status: 415,
          code: 'unsupported_media_type',
          title: 'Unsupported media type',
          detail: 'Send the PDF itself as the body, with Content-Type: application/pdf.',
        }),
      );
    const file = await readRawBody(ctx.req, VERIFY_LIMIT_BYTES, tooLarge);
    if (file.length === 0) throw invalidBody([{ path: 'body', message: 'is empty: send the PDF file' }]);
    if (!file.subarray(0, 1024).includes('%PDF-'))
      throw invalidBody([{ path: 'body', message: 'is not a PDF file (no %PDF- header)' }]);
    ctx.body = verificationView(await run(cases.verifyExecuted(file)));
    ctx.set('Cache-Control', 'no-store');
  });
};
