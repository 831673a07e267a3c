import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { KeptAttachment } from '../ports/attachment-store.js';
import { siteIds, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import { readFieldEntries } from './field-values.js';

/** A signer's file as it is downloaded (ADR 3920). */
export type AttachmentFile = KeptAttachment & { readonly content: Uint8Array };

/**
 * `GET /v1.1/requests/:id/attachments/:field_name` (ADR 3920): the file the field's signer
 * signed with. Only once they signed, and only when the field was asked of them and holds
 * the file's name (a field not asked for holds none, whatever was uploaded for it): a file
 * uploaded by a signer who has not signed, or declined, is not the sender's to read.
 */
export const downloadAttachment =
  (deps: Pick<Deps, 'store'>) =>
  (input: {
    readonly caller: Caller;
    readonly requestId: string;
    readonly fieldName: string;
  }): TE.TaskEither<AppError, AttachmentFile> =>
    pipe(
      deps.store.requests.find(input.requestId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('request'))),
      TE.chainW((request) => {
        const field = request.fields.find((f) => f.name === input.fieldName);
        const signer = request.signers.find((s) => s.signerId === field?.assignedTo);
        if (field === undefined || signer?.state !== 'signed') return TE.left(notFound('attachment'));
        return pipe(
          readFieldEntries(deps, request),
          TE.chainW((entries) => {
            const entry = entries.find((f) => f.name === field.name);
            const signedWith = entry?.type === 'attachment' ? entry.value : null;
            if (typeof signedWith !== 'string' || signedWith === '') return TE.left(notFound('attachment'));
            return pipe(
              deps.store.attachments.file(request.id, signer.signerRef, field.name),
              TE.chainW(TE.fromOption(() => notFound('attachment'))),
            );
          }),
        );
      }),
    );
