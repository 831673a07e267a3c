export { createWebApp, type WebAppOptions } from './web-app.js';
