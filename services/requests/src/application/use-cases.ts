import { patchContract, replaceContract } from './template-drafts.js';
import { copyRequest } from './copy-request.js';
import { addRequestContract, removeRequestContract, reorderRequestContracts } from './draft-contracts.js';
import { addRequestSigner, removeRequestSigner } from './draft-signers.js';
import type { Deps } from './deps.js';
import {
  cancelRequest,
  expireDueRequests,
  remindDueRequests,
  reissueExecutionUrl,
  correctRequestSigner,
  remindRequest,
  sendRequest,
} from './lifecycle.js';
import { recordNotificationOutcome } from './delivery-outcomes.js';
import { createRequest, getRequest, listRequestEvents, listRequests, listSiteEvents } from './requests.js';
import { changeRequestSettings } from './request-settings.js';
import { replaceRequestSigner } from './signer-replacement.js';
import { declineSigning } from './signing/decline-signing.js';
import { reassignSigning } from './signing/reassign-signing.js';
import { openSigningPage } from './signing/open-signing-page.js';
import { signerPdf } from './signing/signer-pdf.js';
import { signerStatus } from './signing/signer-status.js';
import { submitSignature } from './signing/submit-signature.js';
import { keepAttachments } from './signing/keep-attachments.js';
import { downloadAttachment } from './attachments.js';
import { downloadExecuted, issueMissingExecutedDocuments } from './executed-documents.js';
import { verifyExecuted } from './verify-executed.js';
import { resendSignerCode } from './signing/resend-signer-code.js';
import { signerGate } from './signing/signer-gate.js';
import { verifySignerCode } from './signing/verify-signer-code.js';
import { executedCopy, markViewed } from './signer-notices.js';
import { contractDocument, getContract, listContractEvents, listContracts } from './template-reads.js';
import { listFieldValues, listTemplateFieldValues } from './field-values.js';
import {
  archiveContract,
  copyContract,
  createTemplate,
  deleteContract,
  publishContract,
} from './templates.js';

/** The signer side's use cases, bound to their ports. */
export const signingUseCases = (deps: Deps) => ({
  openSigningPage: openSigningPage(deps),
  signerStatus: signerStatus(deps),
  submitSignature: submitSignature(deps),
  keepAttachments: keepAttachments(deps),
  declineSigning: declineSigning(deps),
  reassignSigning: reassignSigning(deps),
  signerPdf: signerPdf(deps),
  downloadExecuted: downloadExecuted(deps),
  issueMissingExecutedDocuments: issueMissingExecutedDocuments(deps),
  verifyExecuted: verifyExecuted(deps),
  signerGate: signerGate(deps),
  verifySignerCode: verifySignerCode(deps),
  resendSignerCode: resendSignerCode(deps),
  markViewed: markViewed(deps),
  executedCopy: executedCopy(deps),
});

/** Every use case, bound to its ports. */
export const useCases = (deps: Deps) => ({
  createTemplate: createTemplate(deps),
  publishContract: publishContract(deps),
  replaceContract: replaceContract(deps),
  patchContract: patchContract(deps),
  deleteContract: deleteContract(deps),
  archiveContract: archiveContract(deps, true),
  unarchiveContract: archiveContract(deps, false),
  copyContract: copyContract(deps),
  contractDocument: contractDocument(deps),
  getContract: getContract(deps),
  listContractEvents: listContractEvents(deps),
  listTemplateFieldValues: listTemplateFieldValues(deps),
  listContracts: listContracts(deps),
  createRequest: createRequest(deps),
  getRequest: getRequest(deps),
  listRequests: listRequests(deps),
  listRequestEvents: listRequestEvents(deps),
  listFieldValues: listFieldValues(deps),
  downloadAttachment: downloadAttachment(deps),
  listSiteEvents: listSiteEvents(deps),
  copyRequest: copyRequest(deps),
  sendRequest: sendRequest(deps),
  cancelRequest: cancelRequest(deps),
  remindRequest: remindRequest(deps),
  reissueExecutionUrl: reissueExecutionUrl(deps),
  correctRequestSigner: correctRequestSigner(deps),
  replaceRequestSigner: replaceRequestSigner(deps),
  addRequestSigner: addRequestSigner(deps),
  removeRequestSigner: removeRequestSigner(deps),
  addRequestContract: addRequestContract(deps),
  removeRequestContract: removeRequestContract(deps),
  reorderRequestContracts: reorderRequestContracts(deps),
  changeRequestSettings: changeRequestSettings(deps),
  expireDueRequests: expireDueRequests(deps),
  remindDueRequests: remindDueRequests(deps),
  recordNotificationOutcome: recordNotificationOutcome(deps),
  ...signingUseCases(deps),
});
export type UseCases = ReturnType<typeof useCases>;
