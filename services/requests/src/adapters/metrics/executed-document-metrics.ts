import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DocumentSealer } from '../../ports/document-sealer.js';

/** What this process did with executed documents, on its /metrics. */
export interface ExecutedDocumentMetrics {
  /**
   * The sealer, each seal it completes counted in `requests_executed_document_seals_total`,
   * and its certificate's end in `requests_seal_certificate_expiry_timestamp_seconds`.
   */
  readonly counting: (sealer: DocumentSealer) => DocumentSealer;
  /** The issuer put `count` documents back for a later try. */
  readonly failed: (count: number) => void;
}

/**
 * `requests_executed_document_seals_total` and `requests_executed_document_failures_total`.
 * Summed over the replicas, the seals should equal the completed Requests: a larger sum is
 * work that two replicas both did (ADR 2930 claims each document for one issuer). The
 * failures are what to alert on: a TSA outage, a template pdf-lib cannot read, a
 * certificate out of date; the certificate's expiry is what to alert on before that.
 */
export const executedDocumentMetrics = (registry: Registry): ExecutedDocumentMetrics => {
  const seals = new Counter({
    name: 'requests_executed_document_seals_total',
    help: 'Executed documents rendered and sealed by this process, by the issuer or by a download that found none kept.',
    registers: [registry],
  });
  const failures = new Counter({
    name: 'requests_executed_document_failures_total',
    help: 'Executed documents the issuer could not issue and put back for a later try.',
    registers: [registry],
  });
  // Made with the first sealer that knows its certificate (a gauge without one would read
  // 0), and read from it at each scrape: a certificate reloaded since shows its own end.
  const expiryOf = (sealer: DocumentSealer) =>
    new Gauge({
      name: 'requests_seal_certificate_expiry_timestamp_seconds',
      help: "When the seal's certificate expires (Unix time): executed documents are not issued after it.",
      registers: [registry],
      collect() {
        const end = sealer.validity?.notAfter;
        if (end !== undefined) this.set(end.getTime() / 1000);
      },
    });
  let expiry: Gauge | undefined;
  return {
    counting: (sealer) => {
      if (sealer.validity !== undefined) expiry ??= expiryOf(sealer);
      return {
        get validity() {
          return sealer.validity;
        },
        seal: (pdf, details) =>
          pipe(
            sealer.seal(pdf, details),
            TE.map((sealed) => {
              seals.inc();
              return sealed;
            }),
          ),
      };
    },
    failed: (count) => {
      if (count > 0) failures.inc(count);
    },
  };
};
