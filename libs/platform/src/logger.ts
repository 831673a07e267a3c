import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs, one object a line, tagged with the service. */
export const createLogger = (service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger =>
  pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: {
      paths: ['req.headers.authorization', 'password', '*.password', 'token', '*.token'],
      censor: '[redacted]',
    },
  });
