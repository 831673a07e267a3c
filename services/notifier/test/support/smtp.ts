// Moved to libs/testing (the end-to-end suite and the benchmark use it too); kept here
// for the tests that still import it from this path.
export { startSmtpServer, type ReceivedMail, type SmtpDouble } from '@esign/testing';
