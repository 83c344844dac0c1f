// IntOrString fields (maxSurge, maxUnavailable, ...): an absolute number or a percentage of a total.

export type IntOrString = number | string;

/**
 * The absolute value of `value` for `total`: percentages are rounded up (`roundUp`) or down, as kube's
 * GetScaledValueFromIntOrPercent. Throws on anything but an integer or `<int>%`.
 */
export function scaledValue(
  value: IntOrString | undefined,
  total: number,
  roundUp: boolean,
  fallback: IntOrString = 0,
): number {
  const v = value ?? fallback;
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new Error(`invalid value ${v}: must be an integer or a percentage`);
    return v;
  }
  const m = /^(\d+)%$/.exec(v);
  if (!m) {
    if (/^\d+$/.test(v)) return Number(v);
    throw new Error(`invalid value ${JSON.stringify(v)}: must be an integer or a percentage`);
  }
  const scaled = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
