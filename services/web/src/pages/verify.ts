import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { VerificationView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { sameOrigin } from '../cookies.js';
import type { WebDeps } from '../context.js';
import { readUpload } from '../forms.js';
import { WebError } from '../guard.js';
import { html, type Html } from '../html.js';
import { fileField, page, time } from '../layout.js';
import { dataTable } from '../table.js';

/** Larger files are refused here; the API's own limit (BODY_LIMIT_BYTES) may be lower. */
const FILE_LIMIT_BYTES = 25 * 1024 * 1024;

const verifyForm = (deps: WebDeps, error: string | undefined): Html =>
  html` ${
      error
        ? html`<div class="errors" role="alert" tabindex="-1" id="error-summary">
            <h2>The file could not be checked</h2>
            <ul>
              <li><a href="#pdf">${error}</a></li>
            </ul>
          </div>`
        : ''
    }
    <form method="post" action="${deps.base}/verify" enctype="multipart/form-data" class="panel" novalidate>
      ${fileField({
        id: 'pdf',
        label: 'Executed PDF',
        accept: 'application/pdf,.pdf',
        hint: 'The file as you received it: it is compared byte for byte, not kept.',
        error,
      })}
      <button type="submit">Verify</button>
      <span class="hint" role="status" data-busy-status></span>
    </form>`;

const outcome = (result: VerificationView): Html => {
  switch (result.status) {
    case 'valid':
      return html`<section class="success" aria-labelledby="outcome">
        <h2 id="outcome">Valid: this is the executed document as issued</h2>
        <p>Every byte matches the executed document this service issued for the Request below.</p>
        <dl class="facts">
          <dt>Request</dt>
          <dd><code>${result.request_id}</code></dd>
          <dt>Completed</dt>
          <dd>${time(result.completed_at)}</dd>
          <dt>Sealed</dt>
          <dd>${time(result.sealed_at)}</dd>
          <dt>Timestamp</dt>
          <dd>
            ${result.timestamped_at ? time(result.timestamped_at) : 'none (no time-stamp authority configured)'}
          </dd>
          <dt>File SHA-256</dt>
          <dd><code>${result.file_sha256}</code></dd>
          <dt>Document SHA-256</dt>
          <dd><code>${result.document_sha256}</code></dd>
          <dt>Seal certificate SHA-256</dt>
          <dd><code>${result.certificate_sha256}</code></dd>
        </dl>
        <h3>Contracts</h3>
        ${dataTable({
          caption: 'Contracts of the Request with their content hashes',
          captionHidden: true,
          region: 'Contracts',
          columns: ['Contract', 'Content SHA-256'],
          rows: result.contracts.map((c) => [c.name, html`<code>${c.sha256}</code>`]),
        })}
        <h3>Signers</h3>
        ${dataTable({
          caption: 'Signers of the Request and what each did',
          captionHidden: true,
          region: 'Signers',
          columns: ['Signer', 'Action', 'Signed as', 'When'],
          rows: result.signers.map((s) => [
            s.signer_id,
            s.action ?? 'none',
            s.typed_name ?? '—',
            s.at ? time(s.at) : '—',
          ]),
        })}
      </section>`;
    case 'modified':
      return html`<section class="errors" aria-labelledby="outcome">
        <h2 id="outcome">Modified: this is not the document as issued</h2>
        <p>
          The file names Request <code>${result.request_id}</code>, whose executed document this service
          issued, but its bytes differ from that document: it was changed after it was issued. Ask the sender
          for the original.
        </p>
        <dl class="facts">
          <dt>File SHA-256</dt>
          <dd><code>${result.file_sha256}</code></dd>
        </dl>
      </section>`;
    case 'unknown':
      return html`<section class="notice" aria-labelledby="outcome">
        <h2 id="outcome">Not issued here</h2>
        <p>This file is not an executed document this service issued, and names none that it did.</p>
        <dl class="facts">
          <dt>File SHA-256</dt>
          <dd><code>${result.file_sha256}</code></dd>
        </dl>
      </section>`;
  }
};

const verifyPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  input: { result?: VerificationView; error?: string; status?: number },
): void => {
  ctx.status = input.status ?? 200;
  ctx.body = page({
    base: deps.base,
    title: input.result ? 'Verification result' : 'Verify an executed document',
    body: html`<h1>Verify an executed document</h1>
      <p>
        Check whether a PDF is, byte for byte, an executed document this service issued. No account needed.
        Its digital signature can also be checked in any PDF reader.
      </p>
      ${input.result ? outcome(input.result) : ''} ${verifyForm(deps, input.error)}
      <p><a href="${deps.base}/sign-in">Sign in</a> to see your own Requests.</p>`,
  });
};

const messageOf = (problem: ApiProblem): string =>
  problem.status === 429
    ? 'Too many checks from here just now. Please wait a minute and try again.'
    : problem.status === 413
      ? 'The file is larger than the service accepts.'
      : ((problem.errors?.[0] ? `The file ${problem.errors[0].message}.` : undefined) ??
        problem.detail ??
        problem.title);

/** `/app/verify`: public; posts the chosen file to `POST /v1.1/verify` and shows the answer. */
export const verifyRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/verify', (ctx) => verifyPage(ctx, deps, {}));

  router.post('/verify', async (ctx) => {
    // Nothing is changed, so there is no token to forge; the origin is still checked.
    if (!sameOrigin(ctx, deps.publicOrigin))
      throw new WebError(
        403,
        'This form did not come from this page. Go back, reload the page and try again.',
      );
    const upload = await readUpload(ctx, FILE_LIMIT_BYTES);
    const file = upload.file;
    if (file === undefined || file.bytes.length === 0)
      return verifyPage(ctx, deps, { error: 'Choose the PDF file to verify', status: 422 });
    if (file.truncated)
      return verifyPage(ctx, deps, {
        error: `The file is larger than ${FILE_LIMIT_BYTES / 1024 / 1024} MB`,
        status: 413,
      });
    const answer = await deps.api.call({
      method: 'POST',
      path: '/v1.1/verify',
      raw: { contentType: 'application/pdf', bytes: file.bytes },
      codec: VerificationView,
    });
    if (E.isLeft(answer))
      return verifyPage(ctx, deps, { error: messageOf(answer.left), status: answer.left.status });
    verifyPage(ctx, deps, { result: answer.right });
  });
};
