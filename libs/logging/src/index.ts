export {
  createLogger,
  LOG_LEVELS,
  LOG_FORMATS,
  type Logger,
  type LogLevel,
  type LogFormat,
  type LoggerOptions,
} from './logger.js';
