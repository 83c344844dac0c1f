import type { Registry } from 'prom-client';

/** The value of one metric series in a registry (0 when the series does not exist yet). */
export async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`metric ${name} is not registered`);
  const { values } = await metric.get();
  const series = values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return series?.value ?? 0;
}
