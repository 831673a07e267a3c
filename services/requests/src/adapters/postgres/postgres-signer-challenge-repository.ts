import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { nullable } from '@esign/contracts';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { Challenge } from '../../domain/signer-authentication.js';
import type { SignerChallengeRepository } from '../../ports/signer-challenge-repository.js';
import { JsonTimestamp } from './rows.js';
import { task } from './task.js';

const ChallengeRow = t.type({
  method: t.keyof({ access_code: null, email_otp: null, sms_otp: null }),
  access_code_hash: nullable(t.string),
  failed_attempts: t.number,
  locked_until: nullable(JsonTimestamp),
  otp_hash: nullable(t.string),
  otp_expires_at: nullable(JsonTimestamp),
  sms_sent_at: t.array(JsonTimestamp),
  passed_at: nullable(JsonTimestamp),
});

const toChallenge = (row: t.TypeOf<typeof ChallengeRow>): Challenge => ({
  method: row.method,
  accessCodeHash: row.access_code_hash,
  failedAttempts: row.failed_attempts,
  lockedUntil: row.locked_until,
  otpHash: row.otp_hash,
  otpExpiresAt: row.otp_expires_at,
  smsSentAt: row.sms_sent_at,
  passedAt: row.passed_at,
});

// Timestamps as JSON text, so they come back in one ISO form whatever the session's zone.
const select = (where: ReturnType<typeof sql.fragment>, lock: boolean) => sql.unsafe`
  SELECT method, access_code_hash, failed_attempts,
         to_json(locked_until) #>> '{}' AS locked_until, otp_hash,
         to_json(otp_expires_at) #>> '{}' AS otp_expires_at,
         ARRAY(SELECT to_json(x) #>> '{}' FROM unnest(sms_sent_at) AS x) AS sms_sent_at,
         to_json(passed_at) #>> '{}' AS passed_at
  FROM signer_challenges WHERE ${where} ${lock ? sql.fragment`FOR UPDATE` : sql.fragment``}`;

/**
 * The signers' challenges of a new Request: one row each; with `when`, as a transition's
 * CTE, only where it holds (`challengeWrites`).
 */
export const insertChallenges = (
  requestId: string,
  challenges: readonly { readonly signerRef: string; readonly challenge: Challenge }[],
  when?: ReturnType<typeof sql.fragment>,
) => sql.fragment`
  INSERT INTO signer_challenges (request_id, signer_ref, method, access_code_hash)
  SELECT ${requestId}, signer_ref, method, access_code_hash
  FROM ${sql.unnest(
    challenges.map((c) => [c.signerRef, c.challenge.method, c.challenge.accessCodeHash]),
    ['text', 'text', 'text'],
  )} AS c(signer_ref, method, access_code_hash)${
    when === undefined
      ? sql.fragment``
      : sql.fragment`
  WHERE ${when}`
  }`;

/**
 * A transition's challenges (ADRs 3280, 3290), for data-modifying CTEs that write only
 * where `when` holds: each one set (a signer added, or a draft's signer's check replaced,
 * starting afresh: nobody has tried a code before the send) or removed (null).
 */
export const challengeWrites = (
  requestId: string,
  challenges: readonly { readonly signerRef: string; readonly challenge: Challenge | null }[],
  when: ReturnType<typeof sql.fragment>,
) => {
  const set = challenges.flatMap(({ signerRef, challenge }) =>
    challenge === null ? [] : [{ signerRef, challenge }],
  );
  const removed = challenges.flatMap(({ signerRef, challenge }) => (challenge === null ? [signerRef] : []));
  return [
    set.length === 0
      ? undefined
      : sql.fragment`${insertChallenges(requestId, set, when)}
  ON CONFLICT (request_id, signer_ref) DO UPDATE
  SET method = EXCLUDED.method, access_code_hash = EXCLUDED.access_code_hash, failed_attempts = 0,
      locked_until = NULL, otp_hash = NULL, otp_expires_at = NULL, sms_sent_at = '{}', passed_at = NULL`,
    removed.length === 0
      ? undefined
      : sql.fragment`
  DELETE FROM signer_challenges
  WHERE request_id = ${requestId} AND signer_ref = ANY(${sql.array(removed, 'text')}) AND ${when}`,
  ];
};

export const postgresSignerChallengeRepository = (q: Queryable): SignerChallengeRepository => {
  const read = (requestId: string, signerRef: string, lock: boolean) =>
    task(async () =>
      O.map(toChallenge)(
        O.fromNullable(
          await db.maybeOne(
            q,
            ChallengeRow,
            select(sql.fragment`request_id = ${requestId} AND signer_ref = ${signerRef}`, lock),
          ),
        ),
      ),
    );
  return {
    lock: (requestId, signerRef) => read(requestId, signerRef, true),
    find: (requestId, signerRef) => read(requestId, signerRef, false),
    save: (requestId, signerRef, c) =>
      task(async () => {
        await db.exec(
          q,
          sql.unsafe`
            UPDATE signer_challenges SET
              failed_attempts = ${c.failedAttempts}, locked_until = ${c.lockedUntil},
              otp_hash = ${c.otpHash}, otp_expires_at = ${c.otpExpiresAt},
              sms_sent_at = ${sql.array([...c.smsSentAt], 'timestamptz')}, passed_at = ${c.passedAt}
            WHERE request_id = ${requestId} AND signer_ref = ${signerRef}`,
        );
      }),
  };
};
