/** The one Clock form, from the contracts. */
export type { Clock } from '@esign/contracts';
