export * from './common.js';
export * from './auth.js';
export * from './shell.js';
export * from './recovery.js';
export * from './settings.js';
export * from './catalogue.js';
export * from './constructor.js';
export * from './learning.js';
export * from './profile.js';
export * from './analytics.js';
export * from './exports.js';
export * from './mail.js';
export * from './plural.js';
export * from './links.js';

export * from './people.js';
export * from './peopleImport.js';
export * from './audit.js';
