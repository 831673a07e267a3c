import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { mallocTrimFigures } from './malloc-trim.js';

export interface Metrics {
  readonly registry: Registry;
  readonly contentType: string;
  observe(method: string, route: string, status: number, seconds: number): void;
  render(): Promise<string>;
}

/**
 * How often the event loop's delay is sampled for prom-client's `nodejs_eventloop_lag_*`
 * figures, in ms. prom-client's default, 10 ms, is a timer that wakes every process 100
 * times a second whether or not it has work: most of an idle service's CPU (ADR 2710).
 * Each sample is the time between two ticks of that timer, so every figure includes the
 * interval: an idle loop reads 0.1 s, and the lag is what exceeds it.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** Prometheus metrics: process defaults plus request counts and latency by route and status. */
export const createMetrics = (service: string): Metrics => {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // What the malloc trimmer did (ADRs 2750, 2760), read when scraped.
  new Gauge({
    name: 'process_malloc_trim_enabled',
    help: 'Whether this process hands free malloc memory back to the system (1) or not (0).',
    registers: [registry],
    collect() {
      this.set(mallocTrimFigures().enabled ? 1 : 0);
    },
  });
  // Running totals the trimmer keeps; each scrape shows them as they are.
  for (const [name, help, figure] of [
    ['process_malloc_trims_total', 'Times this process called malloc_trim.', 'trims'],
    [
      'process_malloc_trim_seconds_total',
      'Time spent in those calls, in seconds; the event loop waits for each.',
      'seconds',
    ],
    [
      'process_malloc_trim_released_bytes_total',
      'How far RSS fell across those calls, in bytes.',
      'releasedBytes',
    ],
  ] as const)
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(mallocTrimFigures()[figure]);
      },
    });
  return {
    registry,
    contentType: registry.contentType,
    observe(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    render: () => registry.metrics(),
  };
};
