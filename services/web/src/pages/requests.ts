import type Router from '@koa/router';
import type { WebDeps } from '../context.js';

export const requestRoutes = (_router: Router, _deps: WebDeps): void => undefined;
