export * from './bastion.js';
