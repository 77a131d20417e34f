export * from './common.js';
export * from './auth.js';
export * from './shell.js';
export * from './recovery.js';
export * from './settings.js';
export * from './catalogue.js';
export * from './constructor.js';
export * from './learning.js';
