import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { attachmentFields } from '../../domain/attachments.js';
import { checkSignature, initialsFields } from '../../domain/signing.js';
import { sign } from '../../domain/signature-request.js';
import { decided, signerAct, type Evidence, type SubmitRefusal } from './signer-act.js';
import type { RefusedUploads } from './keep-attachments.js';
import type { SigningDeps } from './signer-deps.js';
import type { SigningPage } from './signing-page.js';
import type { ExecutionLink } from './verify-link.js';

export interface SignInput extends ExecutionLink, Evidence {
  readonly formToken: string;
  readonly documentSha256: string;
  /** The form's raw answers by field index. */
  readonly values: ReadonlyMap<number, string>;
  readonly typedName: string | undefined;
  /** The initials typed beside the name (ADR 3900). */
  readonly initials?: string | undefined;
  readonly consent: boolean;
  readonly drawnSignature: Uint8Array | null;
  /** Why files this form brought were not kept (ADR 3920), by field index. */
  readonly refusedUploads?: RefusedUploads;
}

/**
 * The form's answers with each attachment field's taken from the files kept for it (ADR 3920):
 * the name of the one kept, or none; never what the form says.
 */
const withKeptFiles = (
  values: ReadonlyMap<number, string>,
  page: SigningPage,
): ReadonlyMap<number, string> => {
  const fields = attachmentFields(page.mine);
  if (fields.length === 0) return values;
  const answers = new Map(values);
  for (const field of fields) {
    const kept = page.attachments.get(field.name);
    if (kept === undefined) answers.delete(field.index);
    else answers.set(field.index, kept.fileName);
  }
  return answers;
};

/** `POST /sign`: checks every field and the signature, then signs (and maybe completes). */
export const submitSignature = (deps: SigningDeps) =>
  signerAct<SignInput>(deps, 'signed', (input, page, now) =>
    pipe(
      checkSignature(page.mine, {
        ...input,
        values: withKeptFiles(input.values, page),
        today: now.slice(0, 10),
        answered: page.answered,
        initials: { fields: initialsFields(page.fields, page.signer), typed: input.initials },
      }),
      E.mapLeft((problems): SubmitRefusal => ({ _tag: 'InvalidSubmission', page, problems })),
      E.map((checked) =>
        decided(deps, page, input, now, sign(page.request, page.signer.signerRef, now), {
          kind: 'signed',
          typedName: checked.typedName,
          drawnSignature: input.drawnSignature,
          values: checked.values,
          reason: null,
        }),
      ),
    ),
  );
