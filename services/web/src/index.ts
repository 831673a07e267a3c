export { createWebApp, type WebAppOptions } from './web-app.js';
export { WEB_CLIENT_HEADER, WEB_PEER_HEADER, type Caller } from './caller.js';
