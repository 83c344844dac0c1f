import { describe, expect, it } from 'vitest';
import { mostRecent, nextAfter, parseSchedule } from './schedule.js';

const at = (iso: string) => Date.parse(iso);
const next = (schedule: string, after: string, tz?: string) =>
  new Date(nextAfter(parseSchedule(schedule, tz), at(after))!).toISOString();

describe('cron schedules', () => {
  it('evaluates fields, lists, ranges, steps and names', () => {
    expect(next('*/15 * * * *', '2026-03-01T10:07:30Z')).toBe('2026-03-01T10:15:00.000Z');
    expect(next('0 9-17/4 * * *', '2026-03-01T10:00:00Z')).toBe('2026-03-01T13:00:00.000Z');
    expect(next('30 2 * * MON-FRI', '2026-02-28T12:00:00Z')).toBe('2026-03-02T02:30:00.000Z');
    expect(next('0 0 1 JAN,JUL *', '2026-03-01T00:00:00Z')).toBe('2026-07-01T00:00:00.000Z');
    expect(next('0 0 31 * *', '2026-04-01T00:00:00Z')).toBe('2026-05-31T00:00:00.000Z');
    expect(next('0 0 * * 7', '2026-03-02T00:00:00Z')).toBe('2026-03-08T00:00:00.000Z');
  });

  it('ORs day of month and day of week when both are restricted', () => {
    // The 15th, or any Monday.
    expect(next('0 0 15 * 1', '2026-03-03T00:00:00Z')).toBe('2026-03-09T00:00:00.000Z');
    expect(next('0 0 15 * 1', '2026-03-10T00:00:00Z')).toBe('2026-03-15T00:00:00.000Z');
  });

  it('knows the macros', () => {
    expect(next('@hourly', '2026-03-01T10:07:00Z')).toBe('2026-03-01T11:00:00.000Z');
    expect(next('@daily', '2026-03-01T10:07:00Z')).toBe('2026-03-02T00:00:00.000Z');
    expect(next('@weekly', '2026-03-03T10:07:00Z')).toBe('2026-03-08T00:00:00.000Z');
    expect(next('@yearly', '2026-03-03T10:07:00Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('runs in the CronJob’s time zone, across daylight saving changes', () => {
    expect(next('0 9 * * *', '2026-03-01T10:00:00Z', 'Asia/Tokyo')).toBe('2026-03-02T00:00:00.000Z');
    // Berlin moves from UTC+1 to UTC+2 on 2026-03-29.
    expect(next('0 9 * * *', '2026-03-28T12:00:00Z', 'Europe/Berlin')).toBe('2026-03-29T07:00:00.000Z');
    // 02:30 does not exist that night in Berlin: the run is skipped.
    expect(next('30 2 * * *', '2026-03-28T12:00:00Z', 'Europe/Berlin')).toBe('2026-03-30T00:30:00.000Z');
  });

  it('finds the latest missed start and counts the missed ones', () => {
    const r = mostRecent(parseSchedule('*/10 * * * *'), at('2026-03-01T10:00:00Z'), at('2026-03-01T10:35:00Z'));
    expect(new Date(r.time!).toISOString()).toBe('2026-03-01T10:30:00.000Z');
    expect(r.missed).toBe(3);
    expect(
      mostRecent(parseSchedule('@hourly'), at('2026-03-01T10:00:00Z'), at('2026-03-01T10:59:00Z')).time,
    ).toBeUndefined();
  });

  it('rejects malformed schedules and unknown zones with a clear error', () => {
    expect(() => parseSchedule('* * *')).toThrow(/expected exactly 5 fields/);
    expect(() => parseSchedule('61 * * * *')).toThrow(/invalid value "61"/);
    expect(() => parseSchedule('* * * * *', 'Mars/Olympus')).toThrow(/unknown time zone/);
  });
});
