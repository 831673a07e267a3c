/** The one shape of every list answer lives in the contracts. */
export { pageView } from '@esign/contracts';
