import type { Messages } from '../../catalogue.js';
import type { en } from '../en/index.js';
import { signerPage } from './signer-page.js';
import { signerEndings } from './signer-endings.js';
import { messages } from './messages.js';
import { executedDocument } from './executed-document.js';

/** German (Sie). */
export const de: Messages<typeof en> = { ...signerPage, ...signerEndings, ...messages, ...executedDocument };
