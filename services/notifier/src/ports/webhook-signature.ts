/**
 * Signs a delivery: the value of the `Esign-Signature` header for `body` sent at
 * `timestamp` (unix seconds), with every secret in force (README.md, "Webhooks").
 */
export type WebhookSignature = (secrets: readonly string[], timestamp: number, body: string) => string;
