import * as t from 'io-ts';
import { isUuid } from '@esign/contracts';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import type { FrameOriginStore } from '../../ports/frame-origin-store.js';
import { task } from './rows.js';

const OriginsRow = t.type({ allowed_frame_origins: t.array(t.string) });

export const postgresFrameOriginStore = (pool: DatabasePool): FrameOriginStore => ({
  get: (appId) =>
    task(async () => {
      if (!isUuid(appId)) return [];
      const row = await db.maybeOne(
        pool,
        OriginsRow,
        sql.unsafe`SELECT allowed_frame_origins FROM developer_apps WHERE id = ${appId} AND deleted_at IS NULL`,
      );
      return row?.allowed_frame_origins ?? [];
    }),
  set: (appId, origins) =>
    task(async () => {
      if (!isUuid(appId)) return false;
      const row = await db.maybeOne(
        pool,
        t.type({ id: t.string }),
        sql.unsafe`
        UPDATE developer_apps SET allowed_frame_origins = ${sql.array([...origins], 'text')}
        WHERE id = ${appId} AND deleted_at IS NULL
        RETURNING id`,
      );
      return row !== null && row !== undefined;
    }),
});
