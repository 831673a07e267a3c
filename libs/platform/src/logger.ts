import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

export interface CreateLoggerOptions {
  /** Write to stderr: for a CLI whose stdout is its answer. */
  readonly stderr?: boolean;
  /**
   * Collect log lines up to this many bytes (below 16 KiB) before writing them (still
   * written at least every second and on exit). 0, the default, writes each line as it comes. A busy
   * service saves a write per line; the price is up to a second of lines lost on a crash.
   */
  readonly bufferBytes?: number;
}

/**
 * Structured JSON logs, one object a line, tagged with the service. On stdout, unless
 * `stderr` is asked for.
 */
export const createLogger = (
  service: string,
  level: string = process.env.LOG_LEVEL ?? 'info',
  options: CreateLoggerOptions = {},
): Logger => {
  const settings: LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: {
      paths: [
        'req.headers.authorization',
        'password',
        '*.password',
        '*.current_password',
        '*.new_password',
        'token',
        '*.token',
      ],
      censor: '[redacted]',
    },
  };
  const bufferBytes = options.bufferBytes ?? 0;
  const dest = options.stderr === true ? 2 : 1;
  return bufferBytes > 0
    ? pino(settings, pino.destination({ dest, minLength: bufferBytes, periodicFlush: 1000 }))
    : options.stderr === true
      ? pino(settings, pino.destination(2))
      : pino(settings);
};
