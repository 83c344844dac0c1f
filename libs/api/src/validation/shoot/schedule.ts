// Time-related settings of a Shoot: maintenance time window and hibernation schedules.
import type { Static } from '@sinclair/typebox';
import type { HibernationSchedule, MaintenanceTimeWindow } from '../../core/v1beta1/shoot.js';
import { type FieldError, FieldPath, invalid, required } from '../field.js';
import { cronError, validTimeZone } from '../cron.js';

const minute = 60_000;
export const MaintenanceWindowMinimum = 30 * minute;
export const MaintenanceWindowMaximum = 6 * 60 * minute;

/** Minutes after midnight UTC of a `HHMMSS+ZZZZ` time, or undefined. */
export function parseWindowTime(text: string): number | undefined {
  const match = /^([01][0-9]|2[0-3])([0-5][0-9])([0-5][0-9])([+-])([01][0-9])([0-5][0-9])$/.exec(text);
  if (!match) return undefined;
  const [, hh, mm, ss, sign, zh, zm] = match;
  const local = Number(hh) * 60 + Number(mm) + Number(ss) / 60;
  const offset = (Number(zh) * 60 + Number(zm)) * (sign === '+' ? 1 : -1);
  return (((local - offset) % 1440) + 1440) % 1440;
}

export function validateMaintenanceTimeWindow(
  window: Static<typeof MaintenanceTimeWindow>,
  path: FieldPath,
): FieldError[] {
  const begin = parseWindowTime(window.begin);
  const end = parseWindowTime(window.end);
  const errors: FieldError[] = [];
  const format = 'must be in the format HHMMSS+ZZZZ (e.g. "220000+0100")';
  if (begin === undefined) errors.push(invalid(path.child('begin'), window.begin, format));
  if (end === undefined) errors.push(invalid(path.child('end'), window.end, format));
  if (begin === undefined || end === undefined) return errors;
  const duration = ((end - begin + 1440) % 1440) * minute;
  if (duration < MaintenanceWindowMinimum) {
    errors.push(invalid(path, window, 'time window must not be smaller than 30 minutes'));
  } else if (duration > MaintenanceWindowMaximum) {
    errors.push(invalid(path, window, 'time window must not be greater than 6 hours'));
  }
  return errors;
}

export function validateHibernationSchedules(
  schedules: readonly Static<typeof HibernationSchedule>[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (schedules ?? []).forEach((schedule, i) => {
    const p = path.index(i);
    if (schedule.start === undefined && schedule.end === undefined) {
      errors.push(required(p.child('start/end'), 'either start or end has to be provided'));
    }
    for (const name of ['start', 'end'] as const) {
      const spec = schedule[name];
      if (spec === undefined) continue;
      const error = cronError(spec);
      if (error) errors.push(invalid(p.child(name), spec, error));
    }
    if (schedule.location !== undefined && !validTimeZone(schedule.location)) {
      errors.push(invalid(p.child('location'), schedule.location, 'unknown time zone'));
    }
    const id = JSON.stringify([schedule.start, schedule.end, schedule.location]);
    if (seen.has(id)) errors.push(invalid(p, schedule, 'duplicate hibernation schedule'));
    seen.add(id);
  });
  return errors;
}
