import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { html } from '../html.js';
import { csrfField, pdfFrame, stateBadge, testMark } from '../layout.js';
import { appPage, doneNotice, problemPage, segment } from './common.js';
import { enteredSection } from './request-entered.js';
import { historySection } from './request-history.js';
import { testMessages } from './request-messages.js';
import { CONTACT_DONE } from './request-signer-contact.js';
import { signerRow } from './request-signer-row.js';
import { replacedNotice } from './request-signer-replace.js';
import { CC_DONE, ccSection } from './request-cc.js';
import { MESSAGE_DONE, messageSection } from './request-message.js';
import { SUBJECT_DONE, subjectSection } from './request-subject.js';
import { requestHeading, TITLE_DONE, titleSection } from './request-title.js';
import { fieldKindsOf } from './request-field-values.js';
import { FIELDS_DONE, fieldsSection } from './request-fields.js';
import { RENDER_DATA_DONE, renderDataSection } from './request-render-data.js';
import { SETTINGS_DONE, settingsSection } from './request-settings.js';
import { REASSIGN_DONE, reassignSection } from './request-reassign-form.js';
import { addSignerSection } from './request-add-signer-form.js';
import { removeHint, signersNotice } from './request-draft-signers.js';
import { settingsNotice } from './request-signer-settings.js';
import { settingsHints } from './request-signer-settings-form.js';
import { contractsSection } from './request-contracts-section.js';
import * as C from './request-draft-contracts.js';
import { copiedNotice, copyButtons, copyHints } from './request-copy.js';
import { copiesFact, requestFacts } from './request-facts.js';
import { contractsFact } from './request-contract-names.js';
import { refusalSummary, type RequestPageTyped } from './request-refusals.js';
import { CANCEL_DONE, cancelSection } from './request-cancel.js';

/** One Request's page: its state, signers with their deliveries, fields, and what can be done next. */

const DONE: Record<string, string> = {
  created: 'The Request was created as a draft. Its Execution URLs become live when you send it.',
  'created-sent':
    'The Request was created and sent: its Execution URLs are live and the signers are being told.',
  send: 'The Request was sent: its Execution URLs are live and the signers are being told.',
  remind: 'The signers who have not signed were reminded.',
  'new-link': 'The signer has a new Execution URL (below); their older links no longer open.',
  'new-link-sent':
    'The signer has a new Execution URL (below), and it is being sent to them; their older links no longer open.',
  ...CANCEL_DONE,
  ...CONTACT_DONE,
  ...SETTINGS_DONE,
  ...RENDER_DATA_DONE,
  ...FIELDS_DONE,
  ...CC_DONE,
  ...MESSAGE_DONE,
  ...SUBJECT_DONE,
  ...TITLE_DONE,
  ...REASSIGN_DONE,
};

export const requestPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  problem?: ApiProblem,
  typed: RequestPageTyped = {},
): Promise<void> => {
  const { correction, settings, renderData, fields, cc, addSigner, signerSettings, contract, copy, message } =
    typed;
  const { title, subject, replacement, reassign } = typed;
  const found = await visitor.api({
    method: 'GET',
    path: `/v1.1/requests/${segment(id)}`,
    codec: RequestView,
  });
  if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'requests', found.left);
  const r = found.right;
  const [history, kept, kinds, read, copies, notDraftContracts, entered] = await Promise.all([
    historySection(visitor, r),
    r.test_mode ? testMessages(visitor, r.id) : '',
    // A draft's fields take values by their templates' kinds.
    fieldKindsOf(visitor, r),
    C.draftTemplatesOf(visitor, r),
    copiesFact(deps, visitor, r),
    // A draft's contracts are named from the templates `draftTemplatesOf` reads, once it has.
    r.state === 'draft' ? undefined : contractsFact(deps, visitor, r, []),
    enteredSection(deps, visitor, r),
  ]);
  const templates = C.templatesIn(read);
  const contracts = notDraftContracts ?? (await contractsFact(deps, visitor, r, templates));
  const action = (name: string, label: string, style = '') =>
    html`<form method="post" action="${deps.base}/requests/${r.id}/${name}" class="inline">
      ${csrfField(visitor.csrf)}
      <button type="submit" ${style ? html` class="${style}"` : ''}>${label}</button>
    </form>`;
  appPage(ctx, deps, visitor, {
    title: r.title === null ? `Request ${r.id.slice(0, 8)}` : `${r.title} (Request ${r.id.slice(0, 8)})`,
    section: 'requests',
    ...(problem ? { status: problem.status } : {}),
    body: html` <p class="crumbs"><a href="${deps.base}/requests">Requests</a></p>
      <h1>${requestHeading(r)} ${stateBadge(r.state)}${testMark(r.test_mode)}</h1>
      ${doneNotice(ctx, DONE, problem)} ${signersNotice(ctx, r, problem)} ${settingsNotice(ctx, r, problem)}
      ${C.contractsNotice(ctx, r, templates, problem)} ${copiedNotice(ctx, r, problem)}
      ${replacedNotice(ctx, r, problem)} ${refusalSummary(deps, problem, typed, r, kinds, templates)}
      <div class="actions">
        ${r.state === 'draft' ? action('send', 'Send') : ''}
        ${r.state === 'sent' ? action('remind', 'Remind signers', 'secondary') : ''}
        ${r.state === 'completed' ? html`<a class="button" href="${deps.base}/requests/${r.id}/download">Download executed PDF</a>` : ''}
        ${copyButtons(deps, visitor, r, problem, copy)}
      </div>
      ${cancelSection({ action: `${deps.base}/requests/${r.id}/cancel`, csrf: visitor.csrf, request: r, typed: typed.cancel, problem })}
      ${copyHints(r)} ${requestFacts(deps, r, copies, contracts)}
      ${
        r.state === 'completed'
          ? pdfFrame('The executed PDF', `${deps.base}/requests/${r.id}/download/inline`, 'The executed PDF')
          : ''
      }
      ${titleSection({ action: `${deps.base}/requests/${r.id}/title`, csrf: visitor.csrf, request: r, typed: title, problem })}
      ${subjectSection({
        action: `${deps.base}/requests/${r.id}/subject`,
        csrf: visitor.csrf,
        request: r,
        typed: subject,
        problem,
      })}
      ${messageSection({
        action: `${deps.base}/requests/${r.id}/message`,
        csrf: visitor.csrf,
        request: r,
        typed: message,
        problem,
      })}
      ${contractsSection({ base: deps.base, csrf: visitor.csrf, request: r, templates: read, typed: contract, problem })}
      <h2>Signers</h2>
      ${
        r.state === 'draft'
          ? html`<p class="hint">Execution URLs become live when the Request is sent.</p>
              <p class="hint">
                A mistyped address, or the wrong channel? <strong>Correct contact</strong> changes a signer’s
                address or number in the Site’s details (this draft, and every other draft naming them, is
                sent to the new ones; Requests already sent keep theirs), and the channels this draft sends
                their link by.
              </p>
              ${removeHint(r)} ${settingsHints(r)}`
          : ''
      }
      ${
        r.state === 'sent'
          ? html`<p class="hint">
                A signer whose link expired or was lost can have a new one: <strong>New link</strong> makes
                it, and their older links stop opening.
              </p>
              <p class="hint">
                A message that bounced, or went to a wrong address? <strong>Correct contact</strong> changes
                how a signer who has not signed is reached: a new e-mail address or mobile number gives them a
                new link (their older links stop opening). A signer whose turn has not come yet is told at
                their turn.
              </p>
              <p class="hint">
                Someone else to sign instead? <strong>Replace signer</strong> puts them in the place of a
                signer who has not signed, with that signer’s fields, and sends them their own link.
              </p>`
          : ''
      }
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Signer</th>
              <th scope="col">Contact</th>
              <th scope="col">State</th>
              <th scope="col">E-mail</th>
              <th scope="col">SMS</th>
              <th scope="col">Execution URL</th>
            </tr>
          </thead>
          <tbody>
            ${r.signers.map(
              signerRow(
                {
                  base: deps.base,
                  csrf: visitor.csrf,
                  correction,
                  replacement,
                  settings: signerSettings,
                  problem,
                },
                r,
              ),
            )}
          </tbody>
        </table>
      </div>
      ${addSignerSection({
        action: `${deps.base}/requests/${r.id}/add-signer`,
        csrf: visitor.csrf,
        request: r,
        typed: addSigner,
        problem,
      })}
      ${fieldsSection({
        action: `${deps.base}/requests/${r.id}/fields`,
        csrf: visitor.csrf,
        request: r,
        kinds,
        typed: fields,
        problem,
      })}
      ${entered}
      ${settingsSection({
        action: `${deps.base}/requests/${r.id}/settings`,
        csrf: visitor.csrf,
        request: r,
        typed: settings,
        problem,
      })}
      ${reassignSection({
        action: `${deps.base}/requests/${r.id}/reassign`,
        csrf: visitor.csrf,
        request: r,
        typed: reassign,
        problem,
      })}
      ${ccSection({
        action: `${deps.base}/requests/${r.id}/cc`,
        csrf: visitor.csrf,
        request: r,
        typed: cc,
        problem,
      })}
      ${renderDataSection({
        action: `${deps.base}/requests/${r.id}/render-data`,
        csrf: visitor.csrf,
        request: r,
        typed: renderData,
        problem,
      })}
      ${history} ${kept}`,
  });
};
