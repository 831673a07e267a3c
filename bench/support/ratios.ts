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
export const printRatios = (run: RunFigures): void => {
  const costThroughput = 1 - run.createGateway.rps / run.createDirect.rps;
  const costReadThroughput = 1 - run.readGateway.rps / run.readDirect.rps;
  print('ratios');
  print(
    `gateway/direct create throughput: ${(run.createGateway.rps / run.createDirect.rps).toFixed(3)} (the gateway costs ${(costThroughput * 100).toFixed(1)}%; target < 15%)`,
  );
  print(
    `gateway - direct create p99: ${ms(run.createGateway.p99 - run.createDirect.p99)} (target < 2 ms); p50: ${ms(run.createGateway.p50 - run.createDirect.p50)}`,
  );
  print(
    `gateway - direct create p99 at ${run.paired.rate}/s each, side by side: ${ms(run.paired.b.p99 - run.paired.a.p99)}; p50: ${ms(run.paired.b.p50 - run.paired.a.p50)}`,
  );
  print(
    `gateway/direct read throughput: ${(run.readGateway.rps / run.readDirect.rps).toFixed(3)} (the gateway costs ${(costReadThroughput * 100).toFixed(1)}%)`,
  );
  print(
    `gateway - direct read p99: ${ms(run.readGateway.p99 - run.readDirect.p99)}; p50: ${ms(run.readGateway.p50 - run.readDirect.p50)}`,
  );
  print(
    `creates through the gateway / raw SQL ceiling: ${(run.createGateway.rps / run.sqlCeiling.rps).toFixed(3)} (target ≥ 0.5)`,
  );
  print(
    `the same 2 signers in each, gateway / raw SQL: ${(run.createHot.rps / run.sqlHot.rps).toFixed(3)} (row locks on the hot signers bound both)`,
  );
  print(
    `creates through the gateway / bare koa ceiling: ${(run.createGateway.rps / run.koa.rps).toFixed(3)}`,
  );
  print(
    `send → e-mail p99: ${ms(run.send.p99)} at ${run.send.achieved.toFixed(0)} sends/s (target < 250 ms at 100/s)`,
  );
  print(`largest service peak RSS: ${run.largestRssMb.toFixed(1)} MB (target < 150 MB)`);
  print(
    `CPU per create through the gateway, summed over the services: ${ms(run.createGateway.cpu?.totalMs ?? NaN)} (direct: ${ms(run.createDirect.cpu?.totalMs ?? NaN)})`,
  );
  print(`CPU per send, summed over the services: ${ms(run.send.cpu.totalMs)}`);
  if (run.warmUp !== undefined)
    print(
      `the same over the warm-up and the run together (cold, as runs before session 35 measured it): ${ms(
        (run.warmUp.cpu.totalMs * run.warmUp.count + run.send.cpu.totalMs * run.send.count) /
          (run.warmUp.count + run.send.count),
      )}`,
    );
  print(
    run.rampRates.length === 0
      ? 'highest send rate sustained with p99 < 1 s: not measured (BENCH_RAMP_RATES=off)'
      : run.highest === undefined
        ? `highest send rate sustained with p99 < 1 s: below ${run.rampRates[0]}/s (the lowest rate tried)`
        : `highest send rate sustained with p99 < 1 s: ${run.highest.achieved.toFixed(0)} sends/s (p99 ${ms(run.highest.p99)}; rates tried ${run.rampRates.join(', ')})`,
  );
};
