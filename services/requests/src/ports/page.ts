/** A page asked for and a page answered: one definition, in the contracts, for every service. */
export type { PageOf, PageRequest } from '@esign/contracts';
