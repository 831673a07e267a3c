import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Deps } from '../../src/application/deps.js';
import type { TemplateField } from '../../src/domain/contract-template.js';
import { scryptCodeHasher } from '../../src/adapters/crypto/scrypt-code-hasher.js';
import { hmacUrlSigner } from '../../src/adapters/crypto/hmac-url-signer.js';
import { hmacFormTokens } from '../../src/adapters/crypto/hmac-form-tokens.js';
import { sanitizeHtmlPolicy } from '../../src/adapters/html/sanitize-html-policy.js';
import type { ExecutedDocument } from '../../src/ports/pdf-renderer.js';
import { memoryExecutedDocuments, memoryStore } from './memory-store.js';
import { scryptHasher } from '@esign/platform';
import { DEFAULT_AUTH_POLICY } from '../../src/domain/signer-authentication.js';
import { NOW } from './builders.js';

/** Use-case dependencies over in-memory fakes: a store, a clock that stands still, counting ids. */
export const fakeDeps = (options: { pdfFields?: readonly TemplateField[] | string } = {}) => {
  const memory = memoryStore();
  let now = NOW;
  let n = 0;
  /** What the fake renderer was asked to render, in order. */
  const rendered: ExecutedDocument[] = [];
  /** The one-time codes the fake hands out, in order. */
  const codes: string[] = [];
  const keys = [{ id: 'k1', secret: 'a-test-secret-that-is-long-enough-000' }];
  const deps: Deps = {
    store: memory.store,
    transact: memory.transact,
    autocommit: memory.autocommit,
    clock: { now: () => new Date(now) },
    ids: {
      requestId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
      signerRef: () => `ref${++n}`,
      eventId: () => `00000000-0000-4000-9000-${String(++n).padStart(12, '0')}`,
    },
    urlSigner: hmacUrlSigner(keys),
    formTokens: hmacFormTokens(keys, 3600),
    pdfRenderer: {
      prefill: (pdf) => TE.right(pdf),
      executed: (document) => {
        rendered.push(document);
        return TE.right(new TextEncoder().encode(`%PDF-fake ${document.requestId}`));
      },
    },
    pdf: {
      readFields: () =>
        typeof options.pdfFields === 'string'
          ? TE.left({ _tag: 'UnusablePdf' as const, reason: options.pdfFields })
          : TE.right(options.pdfFields ?? []),
    },
    htmlPolicy: sanitizeHtmlPolicy,
    publicBaseUrl: 'https://esign.example',
    remindPolicy: { minIntervalSeconds: 3600, maxReminders: 3 },
    executedDocuments: memoryExecutedDocuments(),
    // Sealing is a real adapter (test/integration/executed-documents.test.ts covers it).
    sealer: null,
    codeHasher: scryptCodeHasher(scryptHasher({ logN: 10, r: 8, p: 1 })),
    authPolicy: DEFAULT_AUTH_POLICY,
    authTokens: hmacFormTokens(keys, DEFAULT_AUTH_POLICY.passSeconds),
    oneTimeCode: () => codes.shift() ?? '123456',
    linkLifetimeMs: 30 * 86_400_000,
  };
  return { deps, memory, rendered, codes, setNow: (iso: string) => void (now = iso) };
};
