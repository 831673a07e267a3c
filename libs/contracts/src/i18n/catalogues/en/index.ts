import { signerPage } from './signer-page.js';
import { signerEndings } from './signer-endings.js';
import { messages } from './messages.js';
import { executedDocument } from './executed-document.js';

/**
 * English: the reference catalogue, in four parts by where a message is read. Every other
 * catalogue has exactly its keys, part by part (`Messages`, checked by the compiler), and
 * each message the same ICU placeholders (checked by `catalogueProblems`, tested).
 */
export const en = { ...signerPage, ...signerEndings, ...messages, ...executedDocument } as const;

export type MessageKey = keyof typeof en;
