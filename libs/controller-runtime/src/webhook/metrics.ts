// controller-runtime's webhook metrics: requests by path and HTTP code, latency, requests in flight.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { perRegistry } from '../metrics/per-registry.js';

export const webhookMetrics = perRegistry((registry: Registry) => ({
  requests: new Counter({
    name: 'controller_runtime_webhook_requests_total',
    help: 'Total number of admission requests by HTTP status code.',
    labelNames: ['webhook', 'code'],
    registers: [registry],
  }),
  latency: new Histogram({
    name: 'controller_runtime_webhook_latency_seconds',
    help: 'Histogram of the latency of processing admission requests',
    labelNames: ['webhook'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  }),
  inFlight: new Gauge({
    name: 'controller_runtime_webhook_requests_in_flight',
    help: 'Current number of admission requests being served.',
    labelNames: ['webhook'],
    registers: [registry],
  }),
}));
