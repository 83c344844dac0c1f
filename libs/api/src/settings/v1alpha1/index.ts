export * from './openidconnectpreset.js';
