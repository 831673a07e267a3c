// The token buckets are shared with the notifier's message quotas (ADR 1320): one
// arithmetic, kept in @esign/contracts; the gateway's names stay where they were.
export {
  chargeAll,
  isFull,
  limited,
  refill,
  statusOf,
  type Bucket,
  type Charge,
  type PolicyStatus,
  type RateDecision,
  type RatePolicy,
} from '@esign/contracts';
