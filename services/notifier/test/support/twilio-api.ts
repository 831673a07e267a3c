// Moved to libs/testing (the end-to-end suite and the benchmark use it too); kept here
// for the tests that still import it from this path.
export { startTwilioApi, type SentSms, type TwilioApiDouble } from '@esign/testing';
