import type { z } from 'zod';
import type { LogFormat, LogLevel } from '@gardener-ts/logging';

/** Where a component serves one of its HTTP endpoints. */
export interface Endpoint {
  bindAddress: string;
  port: number;
}

/** What the shared component runtime needs from any component configuration. */
export interface RuntimeSettings {
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** `/healthz` and `/readyz`. */
  healthProbes: Endpoint;
  /** `/metrics`; may equal `healthProbes`, then one server serves all three. */
  metrics: Endpoint;
}

/** A field-level problem in a configuration file, in Kubernetes' field path notation. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * One component's configuration format: the Gardener apiVersion/kind, a schema that defaults and validates
 * it, optional cross-field rules, and how to read the runtime settings out of it.
 */
export interface ComponentConfigSpec<T> {
  component: string;
  apiVersion: string;
  /** Older apiVersions that are read the same way. */
  acceptedApiVersions?: string[];
  kind: string;
  schema: z.ZodType<T>;
  validate?: (config: T) => FieldError[];
  runtime: (config: T) => RuntimeSettings;
}
