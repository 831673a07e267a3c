// The bodies of the calls on one signer of a Request: a new link, a correction, a replacement.
import * as t from 'io-ts';
import { NonEmptyString, nullable, partialUpdate, strict } from './primitives.js';
import { LocaleTag } from './i18n/locale.js';
import { SignerMessage } from './request-texts.js';
import { SendTo, SignerAuthentication, SignerContact, SigningOrder } from './api.js';

/**
 * `POST /v1.1/requests/:id/signers/:signer_id/execution_url`: a new Execution URL for one
 * signer, replacing every older one (ADR 1321). `notify: true` also sends it to them, as
 * a reminder on their chosen channels.
 */
export const ReissueExecutionUrlBody = strict(
  {},
  // No schema hint on t.boolean: a hint is set on the codec, which every module shares.
  { notify: t.boolean },
  'ReissueExecutionUrlBody',
);
export type ReissueExecutionUrlBody = t.TypeOf<typeof ReissueExecutionUrlBody>;

/**
 * `PATCH /v1.1/requests/:id/signers/:signer_id`: corrects how one signer of a sent Request
 * who has not signed is reached (ADR 3140): a new address or mobile number, or other
 * channels. `notify` (default true) sends them their link now when it is their turn. On a
 * draft (ADR 3290): its channels, and its `order`, `authentication` and `locale`, each
 * replaced, null removing it.
 */
export const UpdateRequestSignerBody = partialUpdate(
  {
    signer: SignerContact,
    send_to: SendTo,
    notify: t.boolean,
    order: nullable(SigningOrder),
    authentication: nullable(SignerAuthentication),
    locale: nullable(LocaleTag),
  },
  'UpdateRequestSignerBody',
);
export type UpdateRequestSignerBody = t.TypeOf<typeof UpdateRequestSignerBody>;

/**
 * `POST /v1.1/requests/:id/signers/:signer_id/replace` (ADR 3550): someone else signs in
 * the place of a signer of a sent Request who has not signed. The new signer is given as a
 * create's `signers[]` entry gives one (`signer_id`, `signer`, `send_to`; the Site's signer
 * upserted); their place, signing order, check before signing and language are the replaced
 * signer's. `notify` (default true) sends them their link now when it is their turn, with
 * `message` in place of the Request's own (a note on why they are asked; ADR 3550, amended),
 * and tells the replaced signer, when they had been sent the Request, that they need not sign.
 */
export const ReplaceRequestSignerBody = strict(
  { signer_id: NonEmptyString },
  { signer: SignerContact, send_to: SendTo, notify: t.boolean, message: SignerMessage },
  'ReplaceRequestSignerBody',
);
export type ReplaceRequestSignerBody = t.TypeOf<typeof ReplaceRequestSignerBody>;
