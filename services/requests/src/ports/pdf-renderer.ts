import type { Locale } from '@esign/contracts';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { TemplateField } from '../domain/contract-template.js';
import type { FieldValue, SignerAct } from '../domain/signing.js';
import type { SignerCorrectionRecord } from '../domain/signer-correction.js';

/** One contract of an executed document, with the values of its fields. */
export type ExecutedContract =
  | {
      readonly kind: 'html';
      readonly id: number;
      readonly name: string;
      /** The contract text with render_data merged (escaped), to be laid out as text. */
      readonly html: string;
      readonly sha256: string;
      readonly fields: readonly ExecutedField[];
    }
  | {
      readonly kind: 'pdf';
      readonly id: number;
      readonly name: string;
      readonly pdf: Uint8Array;
      readonly sha256: string;
      readonly fields: readonly ExecutedField[];
    };

export interface ExecutedField {
  readonly name: string;
  readonly definition: TemplateField;
  readonly value: FieldValue | null;
  /** Who completed it (signer_id), when anyone did. */
  readonly signerId: string | null;
  /** For a signature field: the act of the signer who signs it. */
  readonly signature: SignerAct | null;
}

export interface AuditSigner {
  readonly signerId: string;
  readonly email: string | null;
  readonly mobileNumber: string | null;
  readonly act: SignerAct | null;
  /** When the signer first opened their live link (ADR 2002); null when never recorded. */
  readonly viewedAt?: string | null;
  /** How the sender corrected their details after the send, oldest first (ADR 3140). */
  readonly corrections?: readonly SignerCorrectionRecord[];
}

/** A file a signer attached (ADR 3920), carried inside the executed document. */
export interface ExecutedAttachment {
  /** The attachment field it was uploaded for. */
  readonly field: string;
  readonly signerId: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

export interface ExecutedDocument {
  readonly requestId: string;
  readonly siteName: string;
  /** The language of the cover and audit pages (ADR 2320); English when absent. */
  readonly locale?: Locale;
  /** The Site's logo (PNG) when its branding has one, drawn on the audit page (ADR 2301). */
  readonly logoPng?: Uint8Array;
  readonly contracts: readonly ExecutedContract[];
  readonly signers: readonly AuditSigner[];
  readonly documentSha256: string;
  readonly createdAt: string;
  readonly sentAt: string | null;
  readonly completedAt: string;
  /** A test-mode Request: every page is marked "TEST — not legally binding" (issue #22). */
  readonly testMode?: boolean;
  /** The files signers signed with (ADR 3920), embedded in the PDF, sealed with it. */
  readonly attachments?: readonly ExecutedAttachment[];
}

/** Writes PDFs: a template pre-filled for a signer to read, and the executed document. */
export interface PdfRenderer {
  /** The template with its pre-filled values, still a form (not flattened). */
  readonly prefill: (
    pdf: Uint8Array,
    values: readonly { readonly definition: TemplateField; readonly value: FieldValue }[],
  ) => TE.TaskEither<never, Uint8Array>;
  /** The executed document: every contract filled and flattened, signatures, and the audit trail. */
  readonly executed: (document: ExecutedDocument) => TE.TaskEither<never, Uint8Array>;
}
