import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Ids } from '../ports/ids.js';

export const randomIds: Ids = {
  requestId: () => randomUUID(),
  // 96 random bits: unguessable on its own, though the URL signature is what protects it.
  signerRef: () => randomBytes(12).toString('base64url'),
  eventId: () => randomUUID(),
};

/** A one-time code: 6 digits from the CSPRNG, leading zeros kept. */
export const sixDigitCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');
