// Cron schedules as CronJobs use them: five fields (minute hour day-of-month month day-of-week) with lists,
// ranges, steps and names, or a macro (@hourly, @daily, ...), evaluated in an IANA time zone.

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface Field {
  values: Set<number>;
  /** `*` or `?`: for day-of-month and day-of-week, an unrestricted field does not take part in the OR. */
  any: boolean;
}

export interface CronSchedule {
  minute: Field;
  hour: Field;
  dayOfMonth: Field;
  month: Field;
  dayOfWeek: Field;
  timeZone: string;
}

export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}

export function parseSchedule(schedule: string, timeZone = 'UTC'): CronSchedule {
  const spec = MACROS[schedule.trim().toLowerCase()] ?? schedule.trim();
  const parts = spec.split(/\s+/);
  if (parts.length !== 5)
    throw new ScheduleError(
      `invalid schedule ${JSON.stringify(schedule)}: expected exactly 5 fields, found ${parts.length}`,
    );
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new ScheduleError(`unknown time zone ${JSON.stringify(timeZone)}`);
  }
  const dayOfWeek = parseField(parts[4], 0, 7, DAYS);
  // 7 is Sunday, too.
  if (dayOfWeek.values.delete(7)) dayOfWeek.values.add(0);
  return {
    minute: parseField(parts[0], 0, 59),
    hour: parseField(parts[1], 0, 23),
    dayOfMonth: parseField(parts[2], 1, 31),
    month: parseField(parts[3], 1, 12, MONTHS, 1),
    dayOfWeek,
    timeZone,
  };
}

function parseField(text: string, min: number, max: number, names: string[] = [], nameBase = 0): Field {
  const values = new Set<number>();
  const value = (s: string) => {
    const i = names.indexOf(s.toUpperCase());
    const n = i >= 0 ? i + nameBase : /^\d+$/.test(s) ? Number(s) : NaN;
    if (Number.isNaN(n) || n < min || n > max)
      throw new ScheduleError(
        `invalid value ${JSON.stringify(s)} in schedule field ${JSON.stringify(text)} (${min}-${max})`,
      );
    return n;
  };
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1)
      throw new ScheduleError(`invalid step in schedule field ${JSON.stringify(text)}`);
    let [from, to] = [min, max];
    if (range !== '*' && range !== '?') {
      const [a, b] = range.split('-');
      from = value(a);
      to = b === undefined ? (stepText === undefined ? from : max) : value(b);
      if (to < from)
        throw new ScheduleError(`invalid range ${JSON.stringify(range)} in schedule field ${JSON.stringify(text)}`);
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return { values, any: text === '*' || text === '?' };
}

/** Wall-clock fields of an instant in a time zone. */
function wallClock(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(ms);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
}

/** The instant a wall-clock time (as a UTC-based ms value) has in the zone; undefined if it does not exist (a DST gap). */
function instantOf(wall: number, timeZone: string): number | undefined {
  let guess = wall;
  for (let i = 0; i < 3; i++) guess = wall - (wallClock(guess, timeZone) - guess);
  return wallClock(guess, timeZone) === wall ? guess : undefined;
}

function dayMatches(s: CronSchedule, wall: Date): boolean {
  const dom = s.dayOfMonth.values.has(wall.getUTCDate());
  const dow = s.dayOfWeek.values.has(wall.getUTCDay());
  if (s.dayOfMonth.any || s.dayOfWeek.any) return dom && dow;
  return dom || dow;
}

/** The first scheduled instant strictly after `after` (ms), or undefined within the next five years. */
export function nextAfter(s: CronSchedule, after: number): number | undefined {
  let wall = new Date(Math.floor(wallClock(after, s.timeZone) / 60_000) * 60_000 + 60_000);
  const limit = wall.getTime() + 5 * 366 * 24 * 3600_000;
  while (wall.getTime() < limit) {
    if (!s.month.values.has(wall.getUTCMonth() + 1)) {
      wall = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + 1, 1));
    } else if (!dayMatches(s, wall)) {
      wall = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1));
    } else if (!s.hour.values.has(wall.getUTCHours())) {
      wall = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), wall.getUTCHours() + 1));
    } else if (!s.minute.values.has(wall.getUTCMinutes())) {
      wall = new Date(wall.getTime() + 60_000);
    } else {
      const instant = instantOf(wall.getTime(), s.timeZone);
      if (instant !== undefined && instant > after) return instant;
      wall = new Date(wall.getTime() + 60_000);
    }
  }
  return undefined;
}

/**
 * The latest scheduled instant in (`earliest`, `now`], and how many were missed in that window (kube warns
 * about a CronJob that missed too many starts).
 */
export function mostRecent(s: CronSchedule, earliest: number, now: number): { time?: number; missed: number } {
  let time: number | undefined;
  let missed = 0;
  for (let t = nextAfter(s, earliest); t !== undefined && t <= now; t = nextAfter(s, t)) {
    time = t;
    if (++missed > 100) break;
  }
  return { time, missed };
}
