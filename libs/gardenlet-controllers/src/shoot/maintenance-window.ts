// A shoot's daily maintenance time window (Gardener's `utils/timewindow.MaintenanceTimeWindow`): begin and end as
// `HHMMSS+ZZZZ`, possibly across midnight; the effective window ends 15 minutes early so that work started in it can
// finish (Gardener's `EffectiveMaintenanceTimeWindow`). Pure: times in, durations out.

const minuteMs = 60_000;
const dayMinutes = 24 * 60;

/** A daily window in minutes after midnight UTC; `begin === end` would be empty, so "always" is [0, 1440). */
export interface TimeWindow {
  readonly begin: number;
  readonly end: number;
}

/** The window that is always open (a Shoot without a maintenance window). */
export const AlwaysTimeWindow: TimeWindow = { begin: 0, end: dayMinutes };

/** Minutes after midnight UTC of a `HHMMSS+ZZZZ` time, or undefined when it is not one. */
export function parseWindowTime(text: string): number | undefined {
  const match = /^([01][0-9]|2[0-3])([0-5][0-9])([0-5][0-9])([+-])([01][0-9])([0-5][0-9])$/.exec(text);
  if (!match) return undefined;
  const [, hh, mm, ss, sign, zh, zm] = match;
  const local = Number(hh) * 60 + Number(mm) + Number(ss) / 60;
  const offset = (Number(zh) * 60 + Number(zm)) * (sign === '+' ? 1 : -1);
  return (((local - offset) % dayMinutes) + dayMinutes) % dayMinutes;
}

/**
 * The effective maintenance window of `begin`/`end` (its end 15 minutes earlier), or the always-open window when
 * there is none or it does not parse (as Gardener).
 */
export function effectiveMaintenanceWindow(window: { begin: string; end: string } | undefined): TimeWindow {
  if (!window) return AlwaysTimeWindow;
  const begin = parseWindowTime(window.begin);
  const end = parseWindowTime(window.end);
  if (begin === undefined || end === undefined) return AlwaysTimeWindow;
  return { begin, end: (end - 15 + dayMinutes) % dayMinutes };
}

/** The window's length in minutes. */
export function windowLength(window: TimeWindow): number {
  if (window.begin === 0 && window.end === dayMinutes) return dayMinutes;
  return (window.end - window.begin + dayMinutes) % dayMinutes;
}

function minuteOfDay(time: Date): number {
  return (
    time.getUTCHours() * 60 + time.getUTCMinutes() + time.getUTCSeconds() / 60 + time.getUTCMilliseconds() / minuteMs
  );
}

/** Whether the time of day of `time` lies in the window. */
export function windowContains(window: TimeWindow, time: Date): boolean {
  const offset = (minuteOfDay(time) - window.begin + dayMinutes) % dayMinutes;
  return offset < windowLength(window);
}

/**
 * Milliseconds from `now` to a random point of the window (Gardener's `RandomDurationUntilNext`): within the rest of
 * the current window when `now` is in it and `mayBeInSameWindow`, else within the next occurrence. `random` in [0, 1).
 */
export function randomDurationUntilNext(
  window: TimeWindow,
  now: Date,
  mayBeInSameWindow: boolean,
  random: () => number,
): number {
  const length = windowLength(window);
  const offset = (minuteOfDay(now) - window.begin + dayMinutes) % dayMinutes;
  if (mayBeInSameWindow && offset < length) return Math.floor(random() * (length - offset) * minuteMs);
  let untilBegin = (window.begin - minuteOfDay(now) + dayMinutes) % dayMinutes;
  if (untilBegin === 0) untilBegin = dayMinutes;
  return Math.ceil(untilBegin * minuteMs) + Math.floor(random() * length * minuteMs);
}
