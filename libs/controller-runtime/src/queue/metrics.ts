// The workqueue_* metrics of controller-runtime, labelled with the controller's name.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { perRegistry } from '../metrics/per-registry.js';

const LABELS = ['controller', 'name'] as const;
// 10 ns … 10 s, as the Kubernetes workqueue buckets.
const BUCKETS = Array.from({ length: 10 }, (_, i) => 1e-8 * 10 ** i);

/** What the queue reports about itself on each scrape. */
export interface QueueGaugeSource {
  readonly name: string;
  unfinishedWorkSeconds(): number;
  longestRunningProcessorSeconds(): number;
}

export interface QueueMetricFamilies {
  depth: Gauge<(typeof LABELS)[number]>;
  adds: Counter<(typeof LABELS)[number]>;
  queueDuration: Histogram<(typeof LABELS)[number]>;
  workDuration: Histogram<(typeof LABELS)[number]>;
  retries: Counter<(typeof LABELS)[number]>;
  /** Queues whose in-flight work is reported on each scrape. */
  sources: Set<QueueGaugeSource>;
}

export const queueMetricFamilies = perRegistry<QueueMetricFamilies>((registry: Registry) => {
  const sources = new Set<QueueGaugeSource>();
  const registers = [registry];
  const labels = (name: string) => ({ controller: name, name });
  return {
    sources,
    depth: new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: LABELS, registers }),
    adds: new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames: LABELS,
      registers,
    }),
    queueDuration: new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames: LABELS,
      buckets: BUCKETS,
      registers,
    }),
    workDuration: new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames: LABELS,
      buckets: BUCKETS,
      registers,
    }),
    retries: new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames: LABELS,
      registers,
    }),
    unfinished: new Gauge({
      name: 'workqueue_unfinished_work_seconds',
      help: "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads.",
      labelNames: LABELS,
      registers,
      collect() {
        for (const s of sources) this.set(labels(s.name), s.unfinishedWorkSeconds());
      },
    }),
    longest: new Gauge({
      name: 'workqueue_longest_running_processor_seconds',
      help: 'How many seconds has the longest running processor for workqueue been running.',
      labelNames: LABELS,
      registers,
      collect() {
        for (const s of sources) this.set(labels(s.name), s.longestRunningProcessorSeconds());
      },
    }),
  };
});
