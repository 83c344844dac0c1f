export { Controller, type ControllerOptions, type Watch } from './controller.js';
export {
  ControllerBuilder,
  controllerFor,
  type WatchOptions as ControllerWatchOptions,
  type OwnsOptions,
} from './builder.js';
export type { Reconciler, ReconcileFunc, ReconcileContext, ReconcileResult } from './reconciler.js';
export { requestFor, requestKey, parseRequestKey, type Request } from './request.js';
export {
  channelSource,
  onceSource,
  timerSource,
  type ChannelSource,
  type Enqueue,
  type Source,
  type TimerSourceOptions,
} from './source.js';
