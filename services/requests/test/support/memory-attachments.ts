import { createHash } from 'node:crypto';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AttachmentStore, KeptAttachment } from '../../src/ports/attachment-store.js';

/** Signers' files (ADR 3920), by request id, signer ref and field name joined by new lines. */
export type MemoryFiles = Map<string, KeptAttachment & { content: Uint8Array }>;

/** The attachment store over a map, as Postgres keeps it: one file per signer and field. */
export const memoryAttachments = (files: MemoryFiles): AttachmentStore => ({
  keep: (requestId, signerRef, fieldName, upload, at) => {
    files.set(`${requestId}\n${signerRef}\n${fieldName}`, {
      fieldName,
      fileName: upload.fileName,
      contentType: upload.contentType,
      size: upload.bytes.length,
      sha256: createHash('sha256').update(upload.bytes).digest('hex'),
      keptAt: at,
      content: upload.bytes,
    });
    return TE.right(undefined);
  },
  keptBy: (requestId, signerRef) =>
    TE.right(
      [...files.entries()]
        .filter(([key]) => key.startsWith(`${requestId}\n${signerRef}\n`))
        .map(([, { content: _content, ...kept }]) => kept),
    ),
  file: (requestId, signerRef, fieldName) =>
    TE.right(O.fromNullable(files.get(`${requestId}\n${signerRef}\n${fieldName}`))),
});
