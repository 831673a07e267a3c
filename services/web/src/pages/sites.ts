import type Router from '@koa/router';
import type { WebDeps } from '../context.js';

export const siteRoutes = (_router: Router, _deps: WebDeps): void => undefined;
