import type { Messages } from '../../catalogue.js';
import type { en } from '../en/index.js';
import { signerPage } from './signer-page.js';
import { signerEndings } from './signer-endings.js';
import { messages } from './messages.js';
import { executedDocument } from './executed-document.js';

/** Portuguese (Brazilian usage, você); pt-PT reads it too until a catalogue of its own is written. */
export const pt: Messages<typeof en> = { ...signerPage, ...signerEndings, ...messages, ...executedDocument };
