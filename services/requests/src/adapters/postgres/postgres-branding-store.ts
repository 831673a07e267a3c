import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { nullable } from '@esign/contracts';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { SiteBranding } from '../../domain/branding.js';
import type { BrandingStore } from '../../ports/branding-store.js';
import { Bytes, JsonTimestamp } from './rows.js';
import { task } from './task.js';

const BrandingRow = t.type({
  site_id: t.number,
  display_name: nullable(t.string),
  accent_color: nullable(t.string),
  reply_to: nullable(t.string),
  email_footer: nullable(t.string),
  logo_sha256: nullable(t.string),
  updated_at: JsonTimestamp,
});

const toBranding = (r: t.TypeOf<typeof BrandingRow>): SiteBranding => ({
  siteId: r.site_id,
  displayName: r.display_name,
  accentColor: r.accent_color,
  replyTo: r.reply_to,
  emailFooter: r.email_footer,
  logoSha256: r.logo_sha256,
  updatedAt: r.updated_at,
});

const columns = sql.fragment`site_id, display_name, accent_color, reply_to, email_footer, logo_sha256,
  to_json(updated_at) #>> '{}' AS updated_at`;

export const postgresBrandingStore = (q: Queryable): BrandingStore => ({
  get: (siteId) =>
    task(async () => {
      const row = await db.maybeOne(
        q,
        BrandingRow,
        sql.unsafe`SELECT ${columns} FROM site_brandings WHERE site_id = ${siteId}`,
      );
      return O.map(toBranding)(O.fromNullable(row));
    }),
  put: (b, logo) =>
    task(async () =>
      toBranding(
        await db.one(
          q,
          BrandingRow,
          sql.unsafe`
          INSERT INTO site_brandings AS b
            (site_id, display_name, accent_color, reply_to, email_footer, logo_png, logo_sha256, updated_at)
          VALUES (${b.siteId}, ${b.displayName}, ${b.accentColor}, ${b.replyTo}, ${b.emailFooter},
                  ${logo === null || logo === 'keep' ? null : sql.binary(Buffer.from(logo.png))},
                  ${logo === null || logo === 'keep' ? null : logo.sha256}, ${b.updatedAt})
          ON CONFLICT (site_id) DO UPDATE SET
            display_name = EXCLUDED.display_name, accent_color = EXCLUDED.accent_color,
            reply_to = EXCLUDED.reply_to, email_footer = EXCLUDED.email_footer,
            ${
              logo === 'keep'
                ? sql.fragment``
                : sql.fragment`logo_png = EXCLUDED.logo_png, logo_sha256 = EXCLUDED.logo_sha256,`
            }
            updated_at = EXCLUDED.updated_at
          RETURNING ${columns}`,
        ),
      ),
    ),
  logo: (siteId, sha256) =>
    task(async () => {
      const row = await db.maybeOne(
        q,
        t.type({ logo_png: Bytes }),
        sql.unsafe`SELECT logo_png FROM site_brandings WHERE site_id = ${siteId} AND logo_sha256 = ${sha256} AND logo_png IS NOT NULL`,
      );
      return O.fromNullable(row?.logo_png);
    }),
});
