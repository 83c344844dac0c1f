// Validation of standard cron specs (five fields, descriptors, optional CRON_TZ), as parsed by Gardener's cron library.
import { DurationError, parseGoDuration } from '../duration.js';

interface FieldRange {
  name: string;
  min: number;
  max: number;
  names?: string[];
}

const fields: FieldRange[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

const descriptors = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

function value(text: string, range: FieldRange): number | undefined {
  const named = range.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (range.name === 'month' ? 1 : 0);
  if (!/^\d+$/.test(text)) return undefined;
  return Number(text);
}

function fieldError(text: string, range: FieldRange): string | undefined {
  for (const part of text.split(',')) {
    const [span, step, ...extra] = part.split('/');
    if (extra.length > 0) return `too many slashes in ${range.name} "${part}"`;
    if (step !== undefined && !/^[1-9]\d*$/.test(step)) return `invalid step in ${range.name} "${part}"`;
    if (span === '*' || span === '?') continue;
    const [lowText, highText, ...more] = span.split('-');
    if (more.length > 0) return `too many hyphens in ${range.name} "${part}"`;
    const low = value(lowText, range);
    const high = highText === undefined ? low : value(highText, range);
    if (low === undefined || high === undefined) return `failed to parse ${range.name} "${part}"`;
    if (low < range.min || high > range.max) {
      return `${range.name} "${part}" is beyond the range ${range.min}-${range.max}`;
    }
    if (low > high) return `${range.name} "${part}" has a start beyond its end`;
  }
  return undefined;
}

/** The reason a cron spec is invalid, or undefined when it parses. */
export function cronError(
  spec: string,
  isValidTimeZone: (zone: string) => boolean = validTimeZone,
): string | undefined {
  let rest = spec.trim();
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s+(.*)$/.exec(rest);
  if (tz) {
    if (!isValidTimeZone(tz[1])) return `provided bad location ${tz[1]}`;
    rest = tz[2];
  }
  if (rest.startsWith('@')) {
    if (descriptors.has(rest)) return undefined;
    // robfig/cron's parseDescriptor: `@every ` and what time.ParseDuration reads, with its error.
    if (rest.startsWith('@every ')) {
      try {
        parseGoDuration(rest.slice('@every '.length));
        return undefined;
      } catch (err) {
        if (!(err instanceof DurationError)) throw err;
        return `failed to parse duration ${rest}: ${err.message}`;
      }
    }
    return `unrecognized descriptor: ${rest}`;
  }
  const parts = rest.split(/\s+/).filter(Boolean);
  if (parts.length !== 5) return `expected exactly 5 fields, found ${parts.length}: ${rest}`;
  for (let i = 0; i < 5; i++) {
    const error = fieldError(parts[i], fields[i]);
    if (error) return error;
  }
  return undefined;
}

/** An IANA time zone name the runtime knows ("Europe/Berlin", "UTC"). */
export function validTimeZone(zone: string): boolean {
  if (zone === 'Local' || zone === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
