export * from './examples.js';
