// The words of the requests service's problem answers that depend on what was refused:
// the send's preconditions and a state's conflicts (problems.ts maps each error).
import type { FieldError } from '@esign/contracts';
import type { Action, RequestState } from '../../domain/request-model.js';
import type { MissingForSend } from '../../domain/signature-request.js';

export const missingErrors = (missing: readonly MissingForSend[]): FieldError[] =>
  missing.flatMap((m) => {
    switch (m._tag) {
      case 'NoContracts':
        return [{ path: 'contracts', message: 'at least one contract is required' }];
      case 'NoSigners':
        return [{ path: 'signers', message: 'at least one signer is required' }];
      case 'UnassignedFields':
        return m.fields.map((f) => ({
          path: `fields[${f.index}].assigned_to`,
          message: `field "${f.name}" is not assigned to a signer`,
        }));
      case 'SignersWithoutOrder':
        return m.signers.map((s) => ({
          path: `signers[${s.index}].order`,
          message: `signer "${s.signerId}" has no order and another signer has one: every signer needs one, or none (PATCH /v1.1/requests/:id/signers/:signer_id)`,
        }));
    }
  });

/** Why a send was refused, a sentence for each precondition it failed. */
export const sendRefusal = (missing: readonly MissingForSend[], unassigned: readonly string[]): string => {
  const unordered = missing.flatMap((m) => (m._tag === 'SignersWithoutOrder' ? m.signers : []));
  return [
    ...(missing.some((m) => m._tag === 'NoContracts' || m._tag === 'NoSigners')
      ? ['A Request needs at least one contract and one signer before sending.']
      : []),
    ...(unassigned.length > 0
      ? [`Every field must be assigned to a signer before sending; unassigned: ${unassigned.join(', ')}.`]
      : []),
    // ADR 3290: a draft's orders change one signer at a time.
    ...(unordered.length > 0
      ? [
          `Every signer needs a signing order, or none may have one; without one: ${unordered.map((s) => s.signerId).join(', ')}.`,
        ]
      : []),
  ].join(' ');
};

/** Why a Request in `state` refuses `action`, where the general sentence would not say how to go on. */
export const stateConflictDetail = (action: Action, state: RequestState): string => {
  // A draft reads the Site's signer record until it is sent (ADRs 1302, 3200).
  if (action === 'update_signer' && state === 'draft')
    return 'A draft’s signers show the Site’s current address and number: correct those with PUT /v1.1/sites/:id/signers/:signer_id (send_to alone is changed here).';
  // Its signers have been shown the document (ADR 3220).
  if (action === 'update_render_data' || action === 'update_fields')
    return `${action === 'update_fields' ? 'fields' : 'render_data'} can be changed only while the Request is a draft; this one is ${state}: its signers have been shown the document.`;
  // The signers have read it in their invitations (ADRs 3380, 3400).
  if (action === 'update_message' || action === 'update_subject')
    return `${action === 'update_subject' ? 'subject' : 'message'} can be changed only while the Request is a draft; this one is ${state}: its signers have been sent it.`;
  // Fixed with the send: what the signers were sent and how they are checked (ADR 3290).
  if (action === 'update_signer_settings')
    return `A signer's order, authentication and locale are changed only while the Request is a draft; this one is ${state}.`;
  // Its signers have been shown the document (ADRs 3300, 3310).
  if (action === 'reorder_contracts')
    return `Contracts are put in a new order only while the Request is a draft; this one is ${state}: its signers have been shown the document.`;
  if (action === 'add_contract' || action === 'remove_contract')
    return `Contracts are added and removed only while the Request is a draft; this one is ${state}: its signers have been shown the document.`;
  // A draft's signers are removed and added instead (ADRs 3280, 3550).
  if (action === 'replace_signer' && state === 'draft')
    return 'A draft’s signer is replaced by removing them (DELETE /v1.1/requests/:id/signers/:signer_id) and adding the new one (POST /v1.1/requests/:id/signers); replace applies to a sent Request.';
  // Its signers have been sent their links (ADR 3280).
  if (action === 'add_signer' || action === 'remove_signer')
    return `Signers are added and removed only while the Request is a draft; this one is ${state}. A sent Request's signer is corrected with PATCH /v1.1/requests/:id/signers/:signer_id.`;
  return `Cannot ${action} a Request that is ${state}.`;
};
