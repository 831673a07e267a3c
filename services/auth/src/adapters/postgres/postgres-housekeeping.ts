import type { Logger } from '@esign/platform';
import { db, sql, type DatabasePool } from '@esign/platform/database';

/** How long records that no longer matter are kept before they are deleted. */
export const RETENTION = {
  /** Ended sessions: a day, for support questions ("was I signed in?"). */
  sessionsDays: 1,
  /** Expired client-credentials tokens: a machine makes one an hour; a week of them is history enough. */
  clientCredentialsTokensDays: 7,
  /** Authorization codes and refresh tokens past their expiry: a day (a replay after it is just unknown). */
  oauthDays: 1,
  /**
   * Links to choose a new password, from their creation: a day. Their lifetime is 30
   * minutes, and the limit of 3 an hour counts only the last hour's (ADR 3000).
   */
  passwordResetsDays: 1,
  /**
   * Invitations, from when they stopped being open (accepted, revoked, replaced or
   * expired): 30 days, to answer "was I invited?" (ADR 3030). The limit of 20 an hour
   * counts only the last hour's.
   */
  invitationsDays: 30,
} as const;

/**
 * Deletes ended sessions, forgotten password-attempt counts, old machine tokens and old
 * links to choose a new password and invitations long closed.
 * Runs every `intervalMs` on every replica; the statements are idempotent.
 */
export const postgresHousekeeping = (
  pool: DatabasePool,
  logger: Logger,
  options: { readonly quietSeconds: number; readonly intervalMs?: number; readonly now?: () => Date },
) => {
  const now = options.now ?? (() => new Date());
  const purge = async (): Promise<{
    sessions: number;
    attempts: number;
    tokens: number;
    oauth: number;
    passwordResets: number;
    invitations: number;
  }> => {
    const at = now();
    const sessions = await db.exec(
      pool,
      sql.unsafe`
        DELETE FROM sessions
        WHERE expires_at < ${sql.timestamp(at)}::timestamptz - make_interval(days => ${RETENTION.sessionsDays})
           OR revoked_at < ${sql.timestamp(at)}::timestamptz - make_interval(days => ${RETENTION.sessionsDays})`,
    );
    const attempts = await db.exec(
      pool,
      sql.unsafe`
        DELETE FROM password_attempts
        WHERE last_attempt_at < ${sql.timestamp(at)}::timestamptz - make_interval(secs => ${options.quietSeconds})
          AND (blocked_until IS NULL OR blocked_until < ${sql.timestamp(at)})`,
    );
    // Quota windows are a minute long; an hour-old one counts nothing any more.
    await db.exec(
      pool,
      sql.unsafe`DELETE FROM request_quota WHERE window_start < ${sql.timestamp(at)}::timestamptz - interval '1 hour'`,
    );
    const tokens = await db.exec(
      pool,
      sql.unsafe`
        DELETE FROM access_tokens
        WHERE origin = 'client_credentials'
          AND expires_at < ${sql.timestamp(at)}::timestamptz - make_interval(days => ${RETENTION.clientCredentialsTokensDays})`,
    );
    const oldOAuth = sql.fragment`${sql.timestamp(at)}::timestamptz - make_interval(days => ${RETENTION.oauthDays})`;
    const codes = await db.exec(pool, sql.unsafe`DELETE FROM oauth_codes WHERE expires_at < ${oldOAuth}`);
    const refreshTokens = await db.exec(
      pool,
      sql.unsafe`DELETE FROM oauth_refresh_tokens WHERE expires_at < ${oldOAuth}`,
    );
    const passwordResets = await db.exec(
      pool,
      sql.unsafe`
        DELETE FROM password_resets
        WHERE created_at < ${sql.timestamp(at)}::timestamptz - make_interval(days => ${RETENTION.passwordResetsDays})`,
    );
    const invitations = await db.exec(
      pool,
      sql.unsafe`
        DELETE FROM invitations
        WHERE least(coalesce(ended_at, expires_at), expires_at)
              < ${sql.timestamp(at)}::timestamptz - make_interval(days => ${RETENTION.invitationsDays})`,
    );
    return { sessions, attempts, tokens, oauth: codes + refreshTokens, passwordResets, invitations };
  };
  const timer = setInterval(
    () => {
      purge().then(
        (counts) => logger.debug(counts, 'housekeeping'),
        (error: unknown) => logger.warn({ err: error }, 'housekeeping failed'),
      );
    },
    options.intervalMs ?? 10 * 60_000,
  );
  timer.unref();
  return { purge, stop: () => clearInterval(timer) };
};
