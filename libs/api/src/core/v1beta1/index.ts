export * from './common.js';
export * from './shoot.js';
export * from './seed.js';
export * from './cloudprofile.js';
export * from './project.js';
export * from './controller.js';
export * from './backup.js';
export * from './shootstate.js';
