import * as O from 'fp-ts/lib/Option.js';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { ContractTemplate, TemplateWithHtml } from '../../domain/contract-template.js';
import type { TemplateRepository } from '../../ports/template-repository.js';
import { task } from './task.js';
import * as t from 'io-ts';
import {
  Bytes,
  containsPattern,
  Count,
  fieldsFromJson,
  fieldsToJson,
  TemplateRow,
  TemplateWithHtmlRow,
} from './rows.js';

const DocumentRow = t.intersection([
  TemplateRow,
  t.type({ html: t.union([t.string, t.null]), pdf: t.union([Bytes, t.null]) }),
]);

export const toTemplate = (row: TemplateRow): ContractTemplate => ({
  id: row.id,
  siteId: row.site_id,
  name: row.name,
  kind: row.kind,
  state: row.state,
  tokens: row.tokens,
  fields: fieldsFromJson(row.fields),
  document: { sizeBytes: row.document_size, sha256: row.document_sha256 },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  publishedAt: row.published_at,
  archivedAt: row.archived_at,
  deletedAt: row.deleted_at,
});

const toTemplateWithHtml = (row: TemplateRow & { html: string | null }): TemplateWithHtml => ({
  ...toTemplate(row),
  html: row.html,
});

// Everything but the documents, which only a single read (HTML) or the signer pages (PDF) need.
export const TEMPLATE_COLUMNS = sql.fragment`
  id, site_id, name, kind, state, tokens, fields, document_size, document_sha256,
  created_at, updated_at, published_at, archived_at, deleted_at`;

export const postgresTemplateRepository = (q: Queryable): TemplateRepository => {
  const findBy = (id: number, siteIds: readonly number[], lock: boolean) =>
    task(async () => {
      const row = await db.maybeOne(
        q,
        TemplateWithHtmlRow,
        sql.unsafe`
          SELECT ${TEMPLATE_COLUMNS}, html FROM contract_templates
          WHERE id = ${id} AND site_id = ANY(${sql.array([...siteIds], 'int8')}) AND deleted_at IS NULL
          ${lock ? sql.fragment`FOR UPDATE` : sql.fragment``}`,
      );
      return O.map(toTemplateWithHtml)(O.fromNullable(row));
    });
  return {
    insert: (template, pdf) =>
      task(async () =>
        toTemplateWithHtml(
          await db.one(
            q,
            TemplateWithHtmlRow,
            sql.unsafe`
              INSERT INTO contract_templates
                (site_id, name, kind, state, tokens, fields, html, pdf, document_size, document_sha256,
                 created_at, updated_at, published_at)
              VALUES (
                ${template.siteId}, ${template.name}, ${template.kind}, ${template.state},
                ${sql.array([...template.tokens], 'text')}, ${sql.jsonb(fieldsToJson(template.fields))},
                ${template.html}, ${pdf === null ? null : sql.binary(Buffer.from(pdf))},
                ${template.document.sizeBytes}, ${template.document.sha256},
                ${template.createdAt}, ${template.updatedAt}, ${template.publishedAt})
              RETURNING ${TEMPLATE_COLUMNS}, html`,
          ),
        ),
      ),
    // Only a draft: a published template's row is never written again (ADR 3240).
    replace: (id, template, pdf) =>
      task(async () =>
        toTemplateWithHtml(
          await db.one(
            q,
            TemplateWithHtmlRow,
            sql.unsafe`
              UPDATE contract_templates SET
                name = ${template.name}, kind = ${template.kind}, tokens = ${sql.array([...template.tokens], 'text')},
                fields = ${sql.jsonb(fieldsToJson(template.fields))}, html = ${template.html},
                pdf = ${pdf === null ? null : sql.binary(Buffer.from(pdf))},
                document_size = ${template.document.sizeBytes}, document_sha256 = ${template.document.sha256},
                updated_at = ${template.updatedAt}
              WHERE id = ${id} AND state = 'draft'
              RETURNING ${TEMPLATE_COLUMNS}, html`,
          ),
        ),
      ),
    remove: (id) =>
      task(async () => {
        await db.exec(q, sql.unsafe`DELETE FROM contract_templates WHERE id = ${id} AND state = 'draft'`);
      }),
    // Kept for the Requests made with it (ADR 3430); the statement, like the CHECK, takes only a published row.
    markDeleted: (template) =>
      task(async () => {
        await db.exec(
          q,
          sql.unsafe`
            UPDATE contract_templates
            SET deleted_at = ${template.deletedAt}, updated_at = ${template.updatedAt}
            WHERE id = ${template.id} AND state = 'published' AND deleted_at IS NULL`,
        );
      }),
    find: (id, siteIds) => findBy(id, siteIds, false),
    lock: (id, siteIds) => findBy(id, siteIds, true),
    markPublished: (template) =>
      task(async () => {
        await db.exec(
          q,
          sql.unsafe`
            UPDATE contract_templates
            SET state = 'published', published_at = ${template.publishedAt}, updated_at = ${template.updatedAt}
            WHERE id = ${template.id}`,
        );
      }),
    // The archive mark as the domain set it (ADR 3250); the statement, like the column's CHECK, takes only a published row.
    markArchived: (template) =>
      task(async () => {
        await db.exec(
          q,
          sql.unsafe`
            UPDATE contract_templates
            SET archived_at = ${template.archivedAt}, updated_at = ${template.updatedAt}
            WHERE id = ${template.id} AND state = 'published'`,
        );
      }),
    list: (siteId, page, { state, archived, search }) =>
      task(async () => {
        // A search reads the Site's templates (`contract_templates_by_site`), not every Site's.
        const where = sql.fragment`site_id = ${siteId} AND deleted_at IS NULL
          ${state === undefined ? sql.fragment`` : sql.fragment`AND state = ${state}`}
          ${archived === undefined ? sql.fragment`` : archived ? sql.fragment`AND archived_at IS NOT NULL` : sql.fragment`AND archived_at IS NULL`}
          ${search === undefined ? sql.fragment`` : sql.fragment`AND name ILIKE ${containsPattern(search)}`}`;
        const [rows, count] = await Promise.all([
          db.any(
            q,
            TemplateRow,
            sql.unsafe`
              SELECT ${TEMPLATE_COLUMNS} FROM contract_templates WHERE ${where}
              ORDER BY id DESC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
          ),
          db.one(q, Count, sql.unsafe`SELECT count(*) AS total FROM contract_templates WHERE ${where}`),
        ]);
        return { items: rows.map(toTemplate), total: count.total };
      }),
    documents: (siteId, ids) =>
      task(async () =>
        (
          await db.any(
            q,
            DocumentRow,
            sql.unsafe`
              SELECT ${TEMPLATE_COLUMNS}, html, pdf FROM contract_templates
              WHERE site_id = ${siteId} AND id = ANY(${sql.array([...ids], 'int8')})`,
          )
        ).map((row) => ({
          spec: toTemplate(row),
          sha256: row.document_sha256,
          html: row.html,
          pdf: row.pdf,
        })),
      ),
    specs: (siteId, ids) =>
      task(async () =>
        (
          await db.any(
            q,
            TemplateRow,
            sql.unsafe`
              SELECT ${TEMPLATE_COLUMNS} FROM contract_templates
              WHERE site_id = ${siteId} AND id = ANY(${sql.array([...ids], 'int8')})`,
          )
        ).map(toTemplate),
      ),
  };
};
