import type { ContractSummary, RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { WebDeps } from '../context.js';
import type { Html } from '../html.js';
import { cancelSummary, type CancelForm } from './request-cancel.js';
import { ccSummary, type CcForm } from './request-cc.js';
import { copySummary, type CopyForm } from './request-copy.js';
import { addSignerSummary, removalSummary, type AddSignerForm } from './request-draft-signers.js';
import { contractsSummary, type ContractForm } from './request-draft-contracts.js';
import { fieldsSummary, type FieldsForm } from './request-fields.js';
import { messageSummary, type MessageForm } from './request-message.js';
import { reassignSummary, type ReassignForm } from './request-reassign-form.js';
import { renderDataSummary, type RenderDataForm } from './request-render-data.js';
import { settingsSummary, type SettingsForm } from './request-settings.js';
import { subjectSummary, type SubjectForm } from './request-subject.js';
import { titleSummary, type TitleForm } from './request-title.js';
import { contactSummary, type ContactForm } from './request-signer-contact.js';
import { replaceSummary, type ReplaceForm } from './request-signer-replace-form.js';
import {
  pageProblemSummary,
  settingsSummary as signerSettingsSummary,
  type SignerSettingsForm,
} from './request-signer-settings.js';

/** What a refused form on a Request's page sent, so the page shows it again as typed: at most one. */
export interface RequestPageTyped {
  readonly correction?: ContactForm;
  /** A refused Replace signer… of a sent Request's signer, as typed (ADR 3550). */
  readonly replacement?: ReplaceForm;
  readonly settings?: SettingsForm;
  readonly renderData?: RenderDataForm;
  readonly fields?: FieldsForm;
  readonly cc?: CcForm;
  /** A refused Message to the signers of a draft, as typed (ADR 3380). */
  readonly message?: MessageForm;
  /** A refused E-mail subject of a draft, as typed (ADR 3400). */
  readonly subject?: SubjectForm;
  /** A refused Title of a draft or a sent Request, as typed (ADR 3390). */
  readonly title?: TitleForm;
  /** A refused Reassigning of a draft or a sent Request, as sent (ADR 3560). */
  readonly reassign?: ReassignForm;
  /** A refused Add a signer, as typed; the signer whose Remove was refused (ADR 3280). */
  readonly addSigner?: AddSignerForm;
  readonly removal?: string;
  /** A refused Signing settings of a draft's signer, as typed (ADR 3290). */
  readonly signerSettings?: SignerSettingsForm;
  /** A refused Add a contract, or the contract whose Remove or move was refused (ADRs 3300, 3310). */
  readonly contract?: ContractForm;
  /** A refused Copy to a new draft, or Copy as a live draft: its key (ADR 3330). */
  readonly copy?: CopyForm;
  /** A refused Cancel Request, as typed: its reason and whether the signers were to be told. */
  readonly cancel?: CancelForm;
}

/** `summary` of the form, when it is the one that was refused. */
const when =
  <T>(form: T | undefined, summary: (form: T) => Html) =>
  (): Html | undefined =>
    form === undefined ? undefined : summary(form);

/**
 * The summary at the top of a Request's page for a refusal: the refused form's own (each
 * links its errors to that form's fields), else the contracts section's, else the page's.
 */
export const refusalSummary = (
  deps: WebDeps,
  problem: ApiProblem | undefined,
  typed: RequestPageTyped,
  r: RequestView,
  kinds: Parameters<typeof fieldsSummary>[2],
  templates: readonly ContractSummary[],
): Html => {
  if (problem !== undefined) {
    // A refused correction's summary links to the fields of the signer's row.
    const row = r.signers.findIndex((s) => s.signer_id === typed.correction?.signerId);
    const replaced = typed.replacement?.replaced;
    const byForm = [
      when(typed.copy, () => copySummary(deps, problem, r)),
      when(typed.cancel, () => cancelSummary(problem)),
      when(typed.addSigner, () => addSignerSummary(problem)),
      when(typed.signerSettings, (form) => signerSettingsSummary(problem, form, r)),
      when(typed.removal, (signerId) => removalSummary(problem, signerId)),
      when(row >= 0 ? typed.correction : undefined, (form) => contactSummary(problem, form.signerId, row)),
      when(replaced, (signerId) =>
        replaceSummary(
          problem,
          signerId,
          r.signers.findIndex((s) => s.signer_id === signerId),
        ),
      ),
      when(typed.settings, () => settingsSummary(problem)),
      when(typed.renderData, () => renderDataSummary(problem)),
      when(typed.fields, () => fieldsSummary(problem, r, kinds)),
      when(typed.cc, () => ccSummary(problem)),
      when(typed.message, () => messageSummary(problem)),
      when(typed.subject, () => subjectSummary(problem)),
      when(typed.title, () => titleSummary(problem)),
      when(typed.reassign, () => reassignSummary(problem)),
    ];
    for (const summary of byForm) {
      const shown = summary();
      if (shown !== undefined) return shown;
    }
  }
  return contractsSummary(problem, typed.contract, templates) ?? pageProblemSummary(problem, r);
};
