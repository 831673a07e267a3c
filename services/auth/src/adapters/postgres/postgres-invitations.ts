import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { isUuid } from '@esign/contracts';
import { UniqueIntegrityConstraintViolationError } from 'slonik';
import { db, enqueueEvents, sql, type DatabasePool, type Queryable } from '@esign/platform/database';
import type { AcceptedInvitation, Invitation, InvitationStore } from '../../ports/invitations.js';
import { maybe, NullableTimestamp, task, Timestamp } from './rows.js';
import { lockAccountUsers } from './user-rows.js';

const hashOf = (tokenHash: Uint8Array) => sql.binary(Buffer.from(tokenHash));

const InvitationRow = t.type({
  id: t.string,
  email: t.string,
  site_ids: t.array(t.number),
  admin: t.boolean,
  invited_by: t.union([t.string, t.null]),
  inviter_is_admin: t.boolean,
  created_at: Timestamp,
  expires_at: Timestamp,
});
const toInvitation = (row: t.TypeOf<typeof InvitationRow>): Invitation => ({
  id: row.id,
  email: row.email,
  siteIds: row.site_ids,
  admin: row.admin,
  invitedBy: row.invited_by,
  inviterIsAdmin: row.inviter_is_admin,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});
/** Whether the inviting admin is an enabled admin of the invitation's account now. */
const inviterIsAdmin = sql.fragment`EXISTS (
  SELECT 1 FROM users u WHERE u.id = i.invited_by AND u.account_id = i.account_id
    AND u.account_admin AND u.disabled_at IS NULL)`;
const invitationColumns = sql.fragment`
  i.id, i.email, i.site_ids, i.admin, (SELECT u.email FROM users u WHERE u.id = i.invited_by) AS invited_by,
  ${inviterIsAdmin} AS inviter_is_admin, i.created_at, i.expires_at`;

const readInvitation = async (tx: Queryable, id: string): Promise<Invitation> =>
  toInvitation(
    await db.one(
      tx,
      InvitationRow,
      sql.unsafe`SELECT ${invitationColumns} FROM invitations i WHERE i.id = ${id}`,
    ),
  );

/** Thrown inside `accept`'s transaction to roll it back when the address has a user. */
class EmailTaken extends Error {}

/** Invitations to join an account in auth's database, their e-mails through its outbox (ADR 3030). */
export const postgresInvitations = (pool: DatabasePool): InvitationStore => ({
  issue: (invitation, event, maxPerHour) =>
    task(async () =>
      pool.transaction(async (tx) => {
        // The account's row, locked: two invitations at once count each other.
        await db.exec(tx, sql.unsafe`SELECT 1 FROM accounts WHERE id = ${invitation.accountId} FOR UPDATE`);
        const since = new Date(invitation.createdAt.getTime() - 3_600_000);
        const recent = await db.one(
          tx,
          t.type({ n: t.number, oldest: NullableTimestamp }),
          sql.unsafe`
          SELECT count(*)::int AS n, min(created_at) AS oldest FROM invitations
          WHERE account_id = ${invitation.accountId} AND created_at > ${sql.timestamp(since)}`,
        );
        if (recent.n >= maxPerHour && recent.oldest !== null)
          return { tooManyUntil: new Date(recent.oldest.getTime() + 3_600_000) };
        const at = sql.timestamp(invitation.createdAt);
        await db.exec(
          tx,
          sql.unsafe`
          UPDATE invitations SET ended_at = ${at}, end_reason = 'replaced'
          WHERE account_id = ${invitation.accountId} AND email = ${invitation.email} AND ended_at IS NULL`,
        );
        await db.exec(
          tx,
          sql.unsafe`
          INSERT INTO invitations (id, account_id, email, site_ids, admin, invited_by, token_hash, created_at, expires_at)
          VALUES (${invitation.id}, ${invitation.accountId}, ${invitation.email},
                  ${sql.array([...invitation.siteIds], 'int4')}, ${invitation.admin}, ${invitation.invitedBy},
                  ${hashOf(invitation.tokenHash)}, ${at}, ${sql.timestamp(invitation.expiresAt)})`,
        );
        await enqueueEvents(tx, [event]);
        return { issued: await readInvitation(tx, invitation.id) };
      }),
    ),

  listOpen: (accountId, at) =>
    task(async () => {
      const rows = await db.any(
        pool,
        InvitationRow,
        sql.unsafe`
        SELECT ${invitationColumns} FROM invitations i
        WHERE i.account_id = ${accountId} AND i.ended_at IS NULL AND i.expires_at > ${sql.timestamp(at)}
        ORDER BY i.created_at DESC, i.id`,
      );
      return rows.map(toInvitation);
    }),

  revoke: (accountId, id, at) =>
    task(async () => {
      if (!isUuid(id)) return 'unknown' as const;
      const row = await db.maybeOne(
        pool,
        t.type({ revoked: t.boolean }),
        sql.unsafe`
        WITH revoked AS (
          UPDATE invitations SET ended_at = ${sql.timestamp(at)}, end_reason = 'revoked'
          WHERE id = ${id} AND account_id = ${accountId} AND ended_at IS NULL AND expires_at > ${sql.timestamp(at)}
          RETURNING id)
        SELECT EXISTS (SELECT 1 FROM revoked) AS revoked FROM invitations
        WHERE id = ${id} AND account_id = ${accountId}`,
      );
      return row === undefined
        ? ('unknown' as const)
        : row.revoked
          ? ('revoked' as const)
          : ('not_open' as const);
    }),

  findOpen: (tokenHash, at) =>
    maybe(async () => {
      const row = await db.maybeOne(
        pool,
        t.type({ id: t.string, email: t.string, admin: t.boolean, inviter_is_admin: t.boolean }),
        sql.unsafe`
        SELECT i.id, i.email, i.admin, ${inviterIsAdmin} AS inviter_is_admin
        FROM invitations i
        WHERE i.token_hash = ${hashOf(tokenHash)} AND i.ended_at IS NULL AND i.expires_at > ${sql.timestamp(at)}`,
      );
      return row && { id: row.id, email: row.email, admin: row.admin, inviterIsAdmin: row.inviter_is_admin };
    }),

  accept: (tokenHash, user, at, decide) => async () => {
    try {
      const accepted = await pool.transaction(async (tx): Promise<AcceptedInvitation | undefined> => {
        const when = sql.timestamp(at);
        // The account first, then the invitation: the order `issue` and changes to the
        // account's users take their locks in, so none of them waits on another in a circle.
        const account = await db.maybeOne(
          tx,
          t.type({ account_id: t.string }),
          sql.unsafe`SELECT account_id FROM invitations WHERE token_hash = ${hashOf(tokenHash)}`,
        );
        if (account === undefined) return undefined;
        // Decided from the account's users as the last change to them left them: an admin
        // demoted or disabled a moment ago no longer lets anyone in as an admin (ADR 3090).
        const locked = await lockAccountUsers(tx, account.account_id);
        if (locked === undefined) return undefined;
        const open = await db.maybeOne(
          tx,
          t.type({
            id: t.string,
            account_id: t.string,
            email: t.string,
            site_ids: t.array(t.number),
            admin: t.boolean,
            invited_by: t.union([t.string, t.null]),
          }),
          sql.unsafe`
          SELECT i.id, i.account_id, i.email, i.site_ids, i.admin, i.invited_by
          FROM invitations i
          WHERE i.token_hash = ${hashOf(tokenHash)} AND i.account_id = ${account.account_id}
            AND i.ended_at IS NULL AND i.expires_at > ${when}
          FOR UPDATE OF i`,
        );
        if (open === undefined) return undefined;
        const notices = decide({
          invitation: {
            id: open.id,
            email: open.email,
            accountName: locked.accountName,
            admin: open.admin,
            invitedBy: open.invited_by,
          },
          users: locked.users,
        });
        if (O.isNone(notices)) return undefined;
        try {
          await db.exec(
            tx,
            sql.unsafe`
            INSERT INTO users (id, account_id, email, password_hash, password_changed_at, created_at, account_admin)
            VALUES (${user.id}, ${open.account_id}, ${open.email}, ${user.passwordHash}, ${when}, ${when}, ${open.admin})`,
          );
        } catch (error) {
          if (error instanceof UniqueIntegrityConstraintViolationError) throw new EmailTaken(open.email);
          throw error;
        }
        const added = await db.any(
          tx,
          t.type({ site_id: t.number }),
          sql.unsafe`
          INSERT INTO site_members (user_id, site_id, added_at)
          SELECT ${user.id}, s.id, ${when} FROM sites s
          WHERE s.account_id = ${open.account_id} AND s.id = ANY(${sql.array(open.site_ids, 'int4')})
          RETURNING site_id`,
        );
        await db.exec(
          tx,
          sql.unsafe`UPDATE invitations SET ended_at = ${when}, end_reason = 'accepted', user_id = ${user.id} WHERE id = ${open.id}`,
        );
        if (notices.value.length > 0) await enqueueEvents(tx, [...notices.value]);
        return {
          user: { id: user.id, email: open.email, admin: open.admin },
          account: { id: open.account_id, name: locked.accountName },
          siteIds: added.map((row) => row.site_id).sort((a, b) => a - b),
        };
      });
      return E.right(O.fromNullable(accepted));
    } catch (error) {
      if (error instanceof EmailTaken) return E.left({ _tag: 'EmailTaken' as const, email: error.message });
      throw error;
    }
  },
});
