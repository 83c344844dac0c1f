import { Writable } from 'node:stream';
import { pino, type Logger as PinoLogger, type DestinationStream } from 'pino';

export type Logger = PinoLogger;

/** Gardener's log levels (`logLevel` in every component configuration). */
export const LOG_LEVELS = ['debug', 'info', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number] | 'warn' | 'trace' | 'fatal' | 'silent';

/** Gardener's log formats (`logFormat`): one JSON object per line, or human-readable text. */
export const LOG_FORMATS = ['json', 'text'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  /** The component name, logged as `logger` on every line. */
  name: string;
  level?: LogLevel;
  format?: LogFormat;
  /** Where lines go; standard error by default, as Gardener's components log. */
  destination?: DestinationStream | NodeJS.WritableStream;
  /** Fields logged on every line (e.g. the component version). */
  base?: Record<string, unknown>;
}

// Keys that never reach a log line, wherever they appear in a logged object.
const REDACTED = ['*.password', '*.token', '*.privateKey', '*.clientKey', 'data', '*.data'];

export function createLogger(options: LoggerOptions): Logger {
  const format = options.format ?? 'json';
  const sink = options.destination ?? process.stderr;
  const destination = format === 'text' ? textStream(sink as NodeJS.WritableStream) : (sink as DestinationStream);
  return pino(
    {
      level: options.level ?? 'info',
      base: { logger: options.name, ...(options.base ?? {}) },
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED, censor: '[redacted]' },
    },
    destination,
  );
}

/** Renders each JSON line as `time level logger msg key=value ...`, close to Gardener's text format. */
function textStream(out: NodeJS.WritableStream): DestinationStream {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line) out.write(renderText(line) + '\n');
      }
      callback();
    },
  });
  return stream as unknown as DestinationStream;
}

export function renderText(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const { time, level, logger, msg, ...rest } = entry;
  const fields = Object.entries(rest)
    .filter(([k]) => k !== 'pid' && k !== 'hostname')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v)}`);
  return [time, String(level).toUpperCase(), logger, JSON.stringify(msg ?? ''), ...fields].join(' ');
}
