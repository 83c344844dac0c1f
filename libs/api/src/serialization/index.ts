export * from './manifests.js';
