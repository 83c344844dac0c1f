export { enqueueForObject, enqueueForOwner, enqueueMapped, type EventHandler } from './handlers.js';
