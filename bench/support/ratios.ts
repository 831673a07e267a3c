import { ms, print } from './measure.js';
import type { PathLatency, Run } from './runs.js';
import type { SendPhase } from './send.js';
import type { Run as SqlRun } from './sql-ceiling.js';

/** What one bench run measured, for the lines the targets are stated in. */
export interface RunFigures {
  readonly createDirect: Run;
  readonly createGateway: Run;
  readonly createHot: Run;
  readonly paired: { readonly rate: number; readonly a: PathLatency; readonly b: PathLatency };
  readonly readDirect: Run;
  readonly readGateway: Run;
  readonly koa: Run;
  readonly sqlCeiling: SqlRun;
  readonly sqlHot: SqlRun;
  readonly send: SendPhase;
  readonly warmUp: SendPhase | undefined;
  readonly largestRssMb: number;
  readonly rampRates: readonly number[];
  readonly highest: SendPhase | undefined;
}

/**
 * The run's last lines: the ratios and figures the targets are stated in, one per line,
 * worded the same in every run so that runs can be compared.
 */
export const printRatios = ({
  createDirect,
  createGateway,
  createHot,
  paired,
  readDirect,
  readGateway,
  koa,
  sqlCeiling,
  sqlHot,
  send,
  warmUp,
  largestRssMb,
  rampRates,
  highest,
}: RunFigures): void => {
  const costThroughput = 1 - createGateway.rps / createDirect.rps;
  const costReadThroughput = 1 - readGateway.rps / readDirect.rps;
  print('ratios');
  print(
    `gateway/direct create throughput: ${(createGateway.rps / createDirect.rps).toFixed(3)} (the gateway costs ${(costThroughput * 100).toFixed(1)}%; target < 15%)`,
  );
  print(
    `gateway - direct create p99: ${ms(createGateway.p99 - createDirect.p99)} (target < 2 ms); p50: ${ms(createGateway.p50 - createDirect.p50)}`,
  );
  print(
    `gateway - direct create p99 at ${paired.rate}/s each, side by side: ${ms(paired.b.p99 - paired.a.p99)}; p50: ${ms(paired.b.p50 - paired.a.p50)}`,
  );
  print(
    `gateway/direct read throughput: ${(readGateway.rps / readDirect.rps).toFixed(3)} (the gateway costs ${(costReadThroughput * 100).toFixed(1)}%)`,
  );
  print(
    `gateway - direct read p99: ${ms(readGateway.p99 - readDirect.p99)}; p50: ${ms(readGateway.p50 - readDirect.p50)}`,
  );
  print(
    `creates through the gateway / raw SQL ceiling: ${(createGateway.rps / sqlCeiling.rps).toFixed(3)} (target ≥ 0.5)`,
  );
  print(
    `the same 2 signers in each, gateway / raw SQL: ${(createHot.rps / sqlHot.rps).toFixed(3)} (row locks on the hot signers bound both)`,
  );
  print(`creates through the gateway / bare koa ceiling: ${(createGateway.rps / koa.rps).toFixed(3)}`);
  print(
    `send → e-mail p99: ${ms(send.p99)} at ${send.achieved.toFixed(0)} sends/s (target < 250 ms at 100/s)`,
  );
  print(`largest service peak RSS: ${largestRssMb.toFixed(1)} MB (target < 150 MB)`);
  print(
    `CPU per create through the gateway, summed over the services: ${ms(createGateway.cpu?.totalMs ?? NaN)} (direct: ${ms(createDirect.cpu?.totalMs ?? NaN)})`,
  );
  print(`CPU per send, summed over the services: ${ms(send.cpu.totalMs)}`);
  if (warmUp !== undefined)
    print(
      `the same over the warm-up and the run together (cold, as runs before session 35 measured it): ${ms(
        (warmUp.cpu.totalMs * warmUp.count + send.cpu.totalMs * send.count) / (warmUp.count + send.count),
      )}`,
    );
  print(
    rampRates.length === 0
      ? 'highest send rate sustained with p99 < 1 s: not measured (BENCH_RAMP_RATES=off)'
      : highest === undefined
        ? `highest send rate sustained with p99 < 1 s: below ${rampRates[0]}/s (the lowest rate tried)`
        : `highest send rate sustained with p99 < 1 s: ${highest.achieved.toFixed(0)} sends/s (p99 ${ms(highest.p99)}; rates tried ${rampRates.join(', ')})`,
  );
};
