import type { RequestSigner } from './request-model.js';

/** The channels a signer can actually be reached on: chosen in send_to and with an address. */
export const notifiableChannels = (signer: RequestSigner): { email: boolean; sms: boolean } => ({
  email: signer.sendTo.email && signer.contact.email !== null,
  sms: signer.sendTo.sms && signer.contact.mobileNumber !== null,
});

/** Whether any message can reach the signer. */
export const hasChannel = (signer: RequestSigner): boolean => {
  const channels = notifiableChannels(signer);
  return channels.email || channels.sms;
};
