// Gardener's hibernation schedules (`spec.hibernation.schedules`: `start` hibernates, `end` wakes up, cron expressions
// in `location`, UTC by default), evaluated with cron-parser. The most recent trigger after the later of the shoot's
// creation, its last trigger and `now - triggerDeadlineDuration` (at most seven days back) decides; the next trigger
// (plus 100 ms against clock skew) is when to look again. Pure.
import { CronExpressionParser } from 'cron-parser';

/** One schedule as the Shoot carries it. */
export interface HibernationSchedule {
  start?: string;
  end?: string;
  location?: string;
}

/** A cron of one schedule and what it does. */
export interface ParsedSchedule {
  operation: 'hibernate' | 'wakeUp';
  cron: string;
  location: string;
}

const SEVEN_DAYS_MS = 7 * 24 * 3600_000;
/** Padding of the next requeue (Gardener's nextScheduleDelta). */
export const NextScheduleDeltaMs = 100;

/** Parses every start and end cron; throws on the first invalid one, naming it. */
export function parseSchedules(schedules: readonly HibernationSchedule[]): ParsedSchedule[] {
  const out: ParsedSchedule[] = [];
  for (const s of schedules) {
    const location = s.location || 'UTC';
    for (const [operation, cron] of [
      ['hibernate', s.start],
      ['wakeUp', s.end],
    ] as const) {
      if (!cron) continue;
      try {
        CronExpressionParser.parse(cron, { tz: location, currentDate: new Date(0) }).next();
      } catch (err) {
        throw new Error(`invalid hibernation schedule "${cron}" (location ${location}): ${(err as Error).message}`, {
          cause: err,
        });
      }
      out.push({ operation, cron, location });
    }
  }
  return out;
}

/** The latest firing time of `schedule` in (after, now]; undefined when none. */
export function previousTrigger(schedule: ParsedSchedule, after: Date, now: Date): Date | undefined {
  const it = CronExpressionParser.parse(schedule.cron, {
    tz: schedule.location,
    currentDate: new Date(now.getTime() + 1),
  });
  const prev = it.prev().toDate();
  return prev.getTime() > after.getTime() ? prev : undefined;
}

/** The next firing time of `schedule` after `now`. */
export function nextTrigger(schedule: ParsedSchedule, now: Date): Date {
  return CronExpressionParser.parse(schedule.cron, { tz: schedule.location, currentDate: now }).next().toDate();
}

export interface HibernationInput {
  schedules: readonly ParsedSchedule[];
  now: Date;
  creationTimestamp: Date;
  lastTriggerTime?: Date;
  triggerDeadlineMs?: number;
}

/** What to do now (hibernate, wake up or nothing) and when to look again. */
export interface HibernationDecision {
  operation?: 'hibernate' | 'wakeUp';
  requeueAfterMs: number;
}

/** Gardener's getScheduleWithMostRecentTime and nextHibernationTimeDuration. */
export function decideHibernation(input: HibernationInput): HibernationDecision {
  const { now } = input;
  let earliest = input.lastTriggerTime ?? input.creationTimestamp;
  if (input.triggerDeadlineMs !== undefined) {
    const deadline = new Date(now.getTime() - input.triggerDeadlineMs);
    if (deadline.getTime() > earliest.getTime()) earliest = deadline;
  }
  const sevenDaysAgo = new Date(now.getTime() - SEVEN_DAYS_MS);
  if (earliest.getTime() < sevenDaysAgo.getTime()) earliest = sevenDaysAgo;

  let best: { at: Date; operation: ParsedSchedule['operation'] } | undefined;
  for (const schedule of input.schedules) {
    const at = previousTrigger(schedule, earliest, now);
    if (at && (!best || at.getTime() > best.at.getTime())) best = { at, operation: schedule.operation };
  }
  const next = Math.min(...input.schedules.map((s) => nextTrigger(s, now).getTime()));
  return { ...(best ? { operation: best.operation } : {}), requeueAfterMs: next + NextScheduleDeltaMs - now.getTime() };
}
