import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { checkDeclineReason } from '../../domain/signing.js';
import { decline } from '../../domain/signature-request.js';
import { decided, signerAct, type Evidence, type SubmitRefusal } from './signer-act.js';
import type { SigningDeps } from './signer-deps.js';
import type { ExecutionLink } from './verify-link.js';

export interface DeclineInput extends ExecutionLink, Evidence {
  readonly formToken: string;
  readonly documentSha256: string;
  readonly reason: string | undefined;
}

/** `POST /sign/decline`: the Request ends as declined; every Execution URL stops working. */
export const declineSigning = (deps: SigningDeps) =>
  signerAct<DeclineInput>(deps, 'declined', (input, page, now) =>
    pipe(
      checkDeclineReason(input.reason),
      E.mapLeft((problems): SubmitRefusal => ({ _tag: 'InvalidSubmission', page, problems })),
      E.map((reason) =>
        decided(deps, page, input, now, decline(page.request, page.signer.signerRef, now, reason), {
          kind: 'declined',
          typedName: null,
          drawnSignature: null,
          values: {},
          reason,
        }),
      ),
    ),
  );
