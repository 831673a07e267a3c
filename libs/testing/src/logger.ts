import { createLogger, type Logger } from '@esign/platform';

/** A logger for tests: silent unless TEST_LOG_LEVEL asks otherwise. */
export const testLogger = (service = 'test'): Logger =>
  createLogger(service, process.env.TEST_LOG_LEVEL ?? 'silent');
