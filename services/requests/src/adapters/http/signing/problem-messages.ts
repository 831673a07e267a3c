import type { MessageKey, Translator } from '@esign/contracts';

/**
 * The signing form's problems (domain/signing.ts words them in English, for logs and
 * tests) in the page's language. Every wording the domain uses is listed; a test checks
 * that each problem it can produce is found here, so a new one cannot go untranslated.
 */
const FIXED: Readonly<Record<string, MessageKey>> = {
  'must be ticked or left empty': 'problem.tickOrEmpty',
  'must be ticked': 'problem.mustTick',
  'choose one of the options': 'problem.chooseOption',
  'choose one of the options shown': 'problem.chooseShownOption',
  'is required': 'problem.required',
  'must be plain text on one line': 'problem.oneLine',
  'cannot be filled in here': 'problem.notHere',
  'must be a date, like 2030-01-31': 'problem.date',
  'must be digits only, like 12345': 'problem.digits',
  'must be a 10-digit phone number, like 555-014-3000': 'problem.phone',
  'must be a ZIP code, like 12345 or 12345-6789': 'problem.zip',
  "must be letters only, like Anne-Marie O'Neil": 'problem.letters',
  'must be a US Social Security number, like 123-45-6789': 'problem.ssn',
  'must be a US Employer Identification Number, like 12-3456789': 'problem.ein',
  'must be a 9-digit US bank routing number, like 021000021': 'problem.routing',
  'must be a UK postcode, like SW1A 1AA': 'problem.ukPostcode',
  'must be a Canadian postal code, like K1A 0B1': 'problem.caPostalCode',
  'must be an IBAN, like DE89 3704 0044 0532 0130 00': 'problem.iban',
  'must be a European VAT number with its country code, like DE136695976': 'problem.vatNumber',
  'type your full name to sign': 'problem.typeName',
  'type your initials': 'problem.initials',
  'must be your initials: up to 4 letters, like J.Q.C.': 'problem.initialsInvalid',
  'attach a file': 'problem.attach',
  'must be a PDF, PNG or JPEG file': 'problem.attachmentType',
  'must be at most 10 MB': 'problem.attachmentSize',
  'is an empty file: choose it again': 'problem.attachmentEmpty',
  'tick the box to agree to sign electronically': 'problem.consent',
  'tell the sender why you decline': 'problem.reason',
  'must be plain text': 'problem.plainText',
  'enter the e-mail address of the person who should sign': 'problem.reassignEmpty',
  'must be an e-mail address, like name@example.com': 'problem.reassignInvalid',
  'is your own address: give the address of the person who should sign': 'problem.reassignSelf',
  'is already a signer of this request': 'problem.reassignTaken',
};

const AT_MOST = /^must be at most (\d+) characters$/;
const AT_LEAST = /^must be at least (\d+) characters$/;
const ON_OR_AFTER = /^must be on or after (\d{4}-\d{2}-\d{2})$/;
const ON_OR_BEFORE = /^must be on or before (\d{4}-\d{2}-\d{2})$/;
const NAME_AT_MOST = /^must be your name, at most (\d+) characters$/;
const FORMAT = /^must be written as (.+)$/s;

/** The problem in the page's language, or as the domain wrote it when it is not one we know. */
export const problemText = ({ t }: Translator, message: string): string => {
  const fixed = FIXED[message];
  if (fixed !== undefined) return t(fixed);
  const atMost = AT_MOST.exec(message);
  if (atMost !== null) return t('problem.atMost', { max: Number(atMost[1]) });
  const atLeast = AT_LEAST.exec(message);
  if (atLeast !== null) return t('problem.atLeast', { min: Number(atLeast[1]) });
  const onOrAfter = ON_OR_AFTER.exec(message);
  if (onOrAfter !== null) return t('problem.onOrAfter', { date: onOrAfter[1]! });
  const onOrBefore = ON_OR_BEFORE.exec(message);
  if (onOrBefore !== null) return t('problem.onOrBefore', { date: onOrBefore[1]! });
  const nameAtMost = NAME_AT_MOST.exec(message);
  if (nameAtMost !== null) return t('problem.nameAtMost', { max: Number(nameAtMost[1]) });
  const format = FORMAT.exec(message);
  if (format !== null) return t('problem.format', { format: format[1]! });
  return message;
};

/** Whether a wording is one `problemText` translates (for the test that keeps the list whole). */
export const isKnownProblem = (message: string): boolean =>
  FIXED[message] !== undefined ||
  [AT_MOST, AT_LEAST, NAME_AT_MOST, ON_OR_AFTER, ON_OR_BEFORE, FORMAT].some((pattern) =>
    pattern.test(message),
  );
