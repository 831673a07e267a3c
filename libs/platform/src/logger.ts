import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Structured JSON logs, one object a line, tagged with the service. On stdout, unless
 * `stderr` is asked for (a CLI whose stdout is its answer).
 */
export const createLogger = (
  service: string,
  level: string = process.env.LOG_LEVEL ?? 'info',
  options: { readonly stderr?: boolean } = {},
): Logger => {
  const settings: LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: {
      paths: ['req.headers.authorization', 'password', '*.password', 'token', '*.token'],
      censor: '[redacted]',
    },
  };
  return options.stderr === true ? pino(settings, pino.destination(2)) : pino(settings);
};
