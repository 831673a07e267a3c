/** Fresh identifiers. Request ids are UUIDs; signer references are short and opaque. */
export interface Ids {
  readonly requestId: () => string;
  readonly signerRef: () => string;
  readonly eventId: () => string;
}
