import * as t from 'io-ts';
import { CommonEnv, commonDefaults, IntFromEnv, loadConfigOrExit, UrlFromEnv } from '@esign/platform';

export const Config = t.type({
  ...CommonEnv,
  PORT: IntFromEnv(1, 65535),
  PUBLIC_BASE_URL: UrlFromEnv('http', 'https'),
  AUTH_URL: UrlFromEnv('http', 'https'),
  REQUESTS_URL: UrlFromEnv('http', 'https'),
});
export type Config = t.TypeOf<typeof Config>;

export const defaults = {
  ...commonDefaults,
  PORT: '8080',
  PUBLIC_BASE_URL: 'http://localhost:8080',
  AUTH_URL: 'http://127.0.0.1:8081',
  REQUESTS_URL: 'http://127.0.0.1:8082',
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfigOrExit(Config, defaults, env);
