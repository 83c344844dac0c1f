export * from './gardenlet.js';
