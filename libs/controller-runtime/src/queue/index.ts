export { WorkQueue, type WorkQueueOptions } from './work-queue.js';
export {
  ItemExponentialRateLimiter,
  BucketRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
  type RateLimiter,
} from './rate-limiter.js';
export { FakeClock, realClock, type Clock } from './clock.js';
