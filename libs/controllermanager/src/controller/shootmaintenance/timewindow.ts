// Gardener's maintenance time window (`spec.maintenance.timeWindow`, `HHMMSS+ZZZZ` begin and end, wrapping past
// midnight when the end is earlier than the begin). The effective window ends 15 minutes early so that operations
// started inside it can finish; a shoot without a (valid) window may be maintained at any time. Pure.

/** A daily window: begin and end as seconds after midnight UTC. */
export interface TimeWindow {
  beginSeconds: number;
  endSeconds: number;
}

const DAY = 24 * 3600;
/** How much earlier than configured the effective window ends (Gardener's). */
export const EffectiveWindowCutSeconds = 15 * 60;

/** Seconds after midnight UTC of `HHMMSS+ZZZZ` (or `-ZZZZ`); undefined when malformed. */
export function parseWindowTime(value: string): number | undefined {
  const m = /^(\d{2})(\d{2})(\d{2})([+-])(\d{2})(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [h, min, s, sign, zh, zm] = [Number(m[1]), Number(m[2]), Number(m[3]), m[4], Number(m[5]), Number(m[6])];
  if (h > 23 || min > 59 || s > 59 || zh > 23 || zm > 59) return undefined;
  const offset = (sign === '+' ? 1 : -1) * (zh * 3600 + zm * 60);
  return (((h * 3600 + min * 60 + s - offset) % DAY) + DAY) % DAY;
}

/** The effective window of a shoot's `timeWindow`; undefined (always) when unset or malformed. */
export function effectiveWindow(timeWindow: { begin: string; end: string } | undefined): TimeWindow | undefined {
  if (!timeWindow) return undefined;
  const begin = parseWindowTime(timeWindow.begin);
  const end = parseWindowTime(timeWindow.end);
  if (begin === undefined || end === undefined) return undefined;
  return { beginSeconds: begin, endSeconds: (((end - EffectiveWindowCutSeconds) % DAY) + DAY) % DAY };
}

const secondsOfDay = (now: Date) => now.getUTCHours() * 3600 + now.getUTCMinutes() * 60 + now.getUTCSeconds();

/** Whether `now` lies in the window (always, without one). */
export function inWindow(window: TimeWindow | undefined, now: Date): boolean {
  if (!window) return true;
  const t = secondsOfDay(now);
  const { beginSeconds: b, endSeconds: e } = window;
  return b <= e ? t >= b && t < e : t >= b || t < e;
}

/** Milliseconds from `now` until the next begin of the window, plus `offsetFraction` (0..1) of its length. */
export function untilNextWindow(window: TimeWindow | undefined, now: Date, offsetFraction = 0): number {
  if (!window) return DAY * 1000;
  const t = secondsOfDay(now) + now.getUTCMilliseconds() / 1000;
  let untilBegin = window.beginSeconds - t;
  if (untilBegin <= 0) untilBegin += DAY;
  const length = (((window.endSeconds - window.beginSeconds) % DAY) + DAY) % DAY;
  return Math.round((untilBegin + offsetFraction * length) * 1000);
}
