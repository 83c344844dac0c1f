// controller-runtime's controller metrics, labelled with the controller name.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { perRegistry } from '../metrics/per-registry.js';

export type ReconcileResult = 'success' | 'error' | 'requeue' | 'requeue_after';

export const controllerMetricFamilies = perRegistry((registry: Registry) => {
  const registers = [registry];
  const perController = { labelNames: ['controller'] as const, registers };
  return {
    total: new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'] as const,
      registers,
    }),
    errors: new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      ...perController,
    }),
    time: new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      ...perController,
      buckets: [
        0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5,
        1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
      ],
    }),
    activeWorkers: new Gauge({
      name: 'controller_runtime_active_workers',
      help: 'Number of currently used workers per controller',
      ...perController,
    }),
    maxConcurrent: new Gauge({
      name: 'controller_runtime_max_concurrent_reconciles',
      help: 'Maximum number of concurrent reconciles per controller',
      ...perController,
    }),
  };
});
