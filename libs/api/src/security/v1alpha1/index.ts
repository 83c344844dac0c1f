export * from './credentialsbinding.js';
