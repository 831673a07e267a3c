export * from './locale.js';
export * from './catalogue.js';
export * from './translate.js';
