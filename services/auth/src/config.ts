import * as t from 'io-ts';
import { CommonEnv, commonDefaults, IntFromEnv, loadConfigOrExit, UrlFromEnv } from '@esign/platform';

export const Config = t.type({
  ...CommonEnv,
  PORT: IntFromEnv(1, 65535),
  DATABASE_URL: UrlFromEnv('postgres', 'postgresql'),
  AMQP_URL: UrlFromEnv('amqp', 'amqps'),
});
export type Config = t.TypeOf<typeof Config>;

export const defaults = {
  ...commonDefaults,
  PORT: '8081',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/esign_auth',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfigOrExit(Config, defaults, env);
