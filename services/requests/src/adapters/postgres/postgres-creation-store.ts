import * as t from 'io-ts';
import { nullable } from '@esign/contracts';
import {
  db,
  insertEvents,
  prepared,
  sql,
  type OutgoingEvent,
  type Queryable,
} from '@esign/platform/database';
import type { Contact } from '../../domain/signer.js';
import type { CreationStore } from '../../ports/creation-store.js';
import { insertChallenges } from './postgres-signer-challenge-repository.js';
import { upsertSigners } from './signer-upsert.js';
import { TEMPLATE_COLUMNS, toTemplate } from './postgres-template-repository.js';
import { oneStatement, requestInserts } from './request-writes.js';
import { historyInsert } from './request-history.js';
import { JsonTimestamp, TemplateRow } from './rows.js';
import { task } from './task.js';

// Rows built by Postgres as JSON: timestamps in its `+00:00` form, normalised.
const TemplateJson = t.type({
  ...TemplateRow.props,
  created_at: JsonTimestamp,
  updated_at: JsonTimestamp,
  published_at: nullable(JsonTimestamp),
  archived_at: nullable(JsonTimestamp),
});

const InputsRow = t.type({
  templates: t.array(TemplateJson),
  contacts: t.array(
    t.type({ signer_id: t.string, email: nullable(t.string), mobile_number: nullable(t.string) }),
  ),
});

/**
 * A create's reads and writes, one statement each (ADR 2610), both prepared by name (ADR
 * 2830): their texts depend only on which parts a create has, so a connection keeps a
 * handful, and with the tables' statistics their generic plans are the index plans.
 */
export const postgresCreationStore = (q: Queryable, handedOff?: OutgoingEvent[]): CreationStore => ({
  inputs: (siteId, templateIds, signerIds) =>
    task(async () => {
      const row = await db.one(
        q,
        InputsRow,
        prepared(sql.unsafe`
          SELECT
            (SELECT coalesce(json_agg(t), '[]') FROM (
               SELECT ${TEMPLATE_COLUMNS} FROM contract_templates
               WHERE site_id = ${siteId} AND id = ANY(${sql.array([...templateIds], 'int8')})) t
            ) AS templates,
            (SELECT coalesce(json_agg(s), '[]') FROM (
               SELECT signer_id, email, mobile_number FROM signers
               WHERE site_id = ${siteId} AND signer_id = ANY(${sql.array([...signerIds], 'text')})) s
            ) AS contacts`),
      );
      return {
        templates: row.templates.map(toTemplate),
        storedContacts: new Map<string, Contact>(
          row.contacts.map((r) => [r.signer_id, { email: r.email, mobileNumber: r.mobile_number }]),
        ),
      };
    }),
  insert: ({ siteSigners, request, challenges, events }) =>
    task(async () => {
      await db.exec(
        q,
        prepared(
          oneStatement([
            // The order of the writes is not the order Postgres runs them in, and need not
            // be: only the upsert locks rows two creates share, in signer_id order.
            ...(siteSigners.length === 0 ? [] : [upsertSigners(siteSigners)]),
            ...requestInserts(request),
            ...(challenges.length === 0 ? [] : [insertChallenges(request.id, challenges)]),
            ...(events.length === 0 ? [] : [insertEvents(events, { handedOff: handedOff !== undefined })]),
            // A create emits only `request.created`, which no client sees, so this adds
            // nothing today; it keeps the port's promise that any client event it is given
            // reaches the Request's history in the same statement (ADR 3170).
            ...[historyInsert(events)].filter((w) => w !== undefined),
          ]),
        ),
      );
      handedOff?.push(...events);
    }),
});
