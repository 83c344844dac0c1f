export { InformerCache, type CacheOptions, type InformerScope } from './cache.js';
export { CachedClient } from './cached-client.js';
export { SharedInformer, type InformerEventHandler, type InformerOptions } from './informer.js';
export { Store, NAMESPACE_INDEX, objectKey, type IndexFunc } from './store.js';
export { deepFreeze } from './freeze.js';
