import { createHash, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { SignPdf } from '@signpdf/signpdf';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { onFirstUse } from '@esign/platform';
import { TimestampUnavailable, type DocumentSealer, type SealDetails } from '../../ports/document-sealer.js';
import { SEAL_CURVES, type SigningIdentity } from './signing-identity.js';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
};

/** Room for the CMS (hex doubles it): a chain of a few certificates and a TSA token with its own. */
const SIGNATURE_LENGTH = 24_576;

const crypto = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as never });

const sha256 = (data: ArrayBuffer | Uint8Array) =>
  createHash('sha256')
    .update(data instanceof Uint8Array ? data : new Uint8Array(data))
    .digest();

const toArrayBuffer = (data: Uint8Array): ArrayBuffer =>
  data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;

export interface PadesOptions {
  /** An RFC 3161 Time-Stamp Authority: each signature gets its token (PAdES B-T). */
  readonly tsaUrl?: string;
  /** How long the TSA may take before sealing fails (and is tried again at the next download). */
  readonly tsaTimeoutMs?: number;
}

const importKey = async (identity: SigningIdentity) => {
  const der = identity.key.export({ format: 'der', type: 'pkcs8' });
  if (identity.key.asymmetricKeyType === 'ec') {
    // signing-identity admits only these curves.
    const { namedCurve, hash } = SEAL_CURVES[identity.key.asymmetricKeyDetails?.namedCurve ?? '']!;
    return {
      key: await webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve }, false, ['sign']),
      hash,
    };
  }
  return {
    key: await webcrypto.subtle.importKey(
      'pkcs8',
      der,
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['sign'],
    ),
    hash: 'SHA-256',
  };
};

const attribute = (type: string, value: asn1js.AsnType) => new pkijs.Attribute({ type, values: [value] });

/**
 * ESS signing-certificate-v2 (RFC 5035): binds the signature to the signer's certificate, as
 * PAdES requires. `certificateSha256`: the SHA-256 of the certificate's DER.
 */
const signingCertificateV2 = (certificateSha256: Buffer) =>
  attribute(
    OID.signingCertificateV2,
    new asn1js.Sequence({
      value: [
        new asn1js.Sequence({
          value: [
            // hashAlgorithm is omitted: its DEFAULT is SHA-256.
            new asn1js.Sequence({
              value: [new asn1js.OctetString({ valueHex: toArrayBuffer(certificateSha256) })],
            }),
          ],
        }),
      ],
    }),
  );

/**
 * The request's nonce: 8 random bytes made a positive INTEGER in DER's one encoding. Taken
 * as they come, a first byte of 0x00 (or 0xFF) before one that fits is padding that DER
 * forbids, and OpenSSL-based TSAs refuse such a query (1 in 256); a first byte of 0x80 or
 * more is a negative nonce. So the first byte is kept within 0x01–0x7F.
 */
export const tsaNonce = (random: Uint8Array): Uint8Array => {
  const nonce = Uint8Array.from(random);
  nonce[0] = nonce[0]! & 0x7f || 0x01;
  return nonce;
};

/** Asks the TSA for a token over the signature value (RFC 3161 over HTTP, RFC 3161 §3.4). */
const timestampToken = async (
  url: string,
  signature: ArrayBuffer,
  timeoutMs: number,
): Promise<{ token: pkijs.ContentInfo; at: string }> => {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(sha256(signature)) }),
    }),
    nonce: new asn1js.Integer({ valueHex: toArrayBuffer(tsaNonce(randomBytes(8))) }),
    certReq: true,
  });
  let answer: ArrayBuffer;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/timestamp-query' },
      body: Buffer.from(request.toSchema().toBER()),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new TsaError(`the TSA answered ${response.status}`);
    answer = await response.arrayBuffer();
  } catch (error) {
    throw error instanceof TsaError
      ? error
      : new TsaError(`the TSA cannot be reached: ${(error as Error).message}`);
  }
  let parsed: pkijs.TimeStampResp;
  try {
    parsed = pkijs.TimeStampResp.fromBER(answer);
  } catch {
    throw new TsaError('the TSA answered something that is not a time-stamp response');
  }
  // PKIStatus 0 granted, 1 grantedWithMods; anything else is a refusal.
  const status = Number(parsed.status.status);
  if (status > 1 || parsed.timeStampToken === undefined)
    throw new TsaError(`the TSA refused the request (status ${status})`);
  const signed = new pkijs.SignedData({ schema: parsed.timeStampToken.content });
  const content = signed.encapContentInfo.eContent;
  if (content === undefined) throw new TsaError('the TSA token holds no TSTInfo');
  const info = pkijs.TSTInfo.fromBER(content.getValue());
  const imprint = Buffer.from(info.messageImprint.hashedMessage.getValue());
  if (!imprint.equals(sha256(signature))) throw new TsaError('the TSA token is for another signature');
  return { token: parsed.timeStampToken, at: info.genTime.toISOString() };
};

/** Raised for what the TSA did (or did not) answer; the seal rejects with it as `TimestampUnavailable`. */
class TsaError extends Error {}

/** The TSA's failure behind `error`, if it is one: signpdf wraps what the signer throws, keeping the cause. */
const tsaErrorIn = (error: unknown): TsaError | undefined => {
  for (let e: unknown = error; e instanceof Error; e = e.cause) if (e instanceof TsaError) return e;
  return undefined;
};

/**
 * What every seal of one identity uses, made once per sealer (ADR 2960): the chain parsed
 * and the key imported for WebCrypto were about half of a seal's CPU when each seal made
 * them again. pkijs only reads the certificates; a failed import is tried again next time.
 */
interface Prepared {
  /** The SHA-256 of the signer's certificate (the chain's first). */
  readonly leafSha256: Buffer;
  readonly certificates: readonly pkijs.Certificate[];
  readonly key: () => ReturnType<typeof importKey>;
}

const prepare = (identity: SigningIdentity): Prepared => ({
  leafSha256: sha256(identity.chain[0]!),
  certificates: identity.chain.map((der) => pkijs.Certificate.fromBER(toArrayBuffer(der))),
  key: onFirstUse(() => importKey(identity)),
});

/** The CMS of a PAdES baseline signature: CAdES detached, the whole chain, signing-certificate-v2. */
class PadesSigner extends Signer {
  timestampedAt: string | null = null;

  constructor(
    private readonly prepared: Prepared,
    private readonly options: PadesOptions,
  ) {
    super();
  }

  override async sign(signedBytes: Buffer, signingTime?: Date): Promise<Buffer> {
    const { leafSha256, certificates } = this.prepared;
    const leaf = certificates[0]!;
    const { key, hash } = await this.prepared.key();
    const signerInfo = new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({ issuer: leaf.issuer, serialNumber: leaf.serialNumber }),
      signedAttrs: new pkijs.SignedAndUnsignedAttributes({
        type: 0,
        attributes: [
          attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
          attribute(OID.signingTime, new asn1js.UTCTime({ valueDate: signingTime ?? new Date() })),
          attribute(
            OID.messageDigest,
            new asn1js.OctetString({
              valueHex: toArrayBuffer(
                createHash(hash.replace('-', '').toLowerCase()).update(signedBytes).digest(),
              ),
            }),
          ),
          signingCertificateV2(leafSha256),
        ],
      }),
    });
    const signedData = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      signerInfos: [signerInfo],
      certificates: [...certificates],
    });
    await signedData.sign(key, 0, hash, undefined, crypto);
    if (this.options.tsaUrl !== undefined) {
      const { token, at } = await timestampToken(
        this.options.tsaUrl,
        signerInfo.signature.valueBlock.valueHexView.slice().buffer,
        this.options.tsaTimeoutMs ?? 10_000,
      );
      signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
        type: 1,
        attributes: [attribute(OID.timeStampToken, token.toSchema())],
      });
      this.timestampedAt = at;
    }
    const cms = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
    return Buffer.from(cms.toSchema().toBER());
  }
}

/**
 * Seals with `@signpdf`: a signature placeholder appended as an incremental update
 * (`/SubFilter /ETSI.CAdES.detached`, `/M` the signing time), then the CMS over every byte
 * but the placeholder, so the signature covers the whole file as written.
 */
export const padesSealer = (identity: SigningIdentity, options: PadesOptions = {}): DocumentSealer => {
  const prepared = prepare(identity);
  const certificateSha256 = prepared.leafSha256.toString('hex');
  const signerName = new X509Certificate(identity.chain[0]!).subject.replace(/\n/g, ', ');
  return {
    seal: (pdf: Uint8Array, details: SealDetails) =>
      TE.rightTask(async () => {
        const withPlaceholder = plainAddPlaceholder({
          pdfBuffer: Buffer.from(pdf),
          reason: details.reason,
          contactInfo: '',
          name: signerName,
          location: '',
          signingTime: details.signingTime,
          signatureLength: SIGNATURE_LENGTH,
          subFilter: SUBFILTER_ETSI_CADES_DETACHED,
        });
        const signer = new PadesSigner(prepared, options);
        let signed: Buffer;
        try {
          signed = await new SignPdf().sign(withPlaceholder, signer, details.signingTime);
        } catch (error) {
          // The TSA's failure is an outage: the task rejects with it, like any other.
          const tsa = tsaErrorIn(error);
          if (tsa !== undefined) throw new TimestampUnavailable(tsa.message);
          throw error;
        }
        return { pdf: new Uint8Array(signed), certificateSha256, timestampedAt: signer.timestampedAt };
      }),
  };
};
