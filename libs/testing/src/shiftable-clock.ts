import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A wall clock a test can move for one service process, from outside, while it runs:
 * libfaketime (Debian's `faketime` package) preloaded into the process, reading its offset
 * from a file on every call. Only the wall clock moves (`Date`); timers run on the
 * monotonic clock, untouched. No service carries a switch for it: the process is told the
 * time is later, as a process on a machine whose clock moved would be.
 */
export interface ShiftableClock {
  /** Environment for the service whose clock moves (`SystemOptions.env[name]`). */
  readonly env: Readonly<Record<string, string>>;
  /** Moves the clock `seconds` ahead of the real one (0: back to real time). */
  shift(seconds: number): void;
  /** Removes the offset file. */
  dispose(): void;
}

const libraryDirs = () =>
  ['/usr/lib', '/usr/lib64', '/usr/local/lib'].flatMap((root) => {
    if (!existsSync(root)) return [];
    return [
      join(root, 'faketime'),
      ...readdirSync(root)
        .filter((name) => name.endsWith('-linux-gnu'))
        .map((name) => join(root, name, 'faketime')),
    ];
  });

/** libfaketime's path, or undefined when the `faketime` package is not installed. */
export const libfaketimePath = (): string | undefined =>
  libraryDirs()
    .map((dir) => join(dir, 'libfaketime.so.1'))
    .find((path) => existsSync(path));

export const shiftableClock = (): ShiftableClock => {
  const library = libfaketimePath();
  if (library === undefined)
    throw new Error('libfaketime is not installed: apt-get install faketime (listed in .ci/apt-packages)');
  const dir = mkdtempSync(join(tmpdir(), 'esign-clock-'));
  const file = join(dir, 'offset');
  const shift = (seconds: number) =>
    writeFileSync(file, `${seconds >= 0 ? '+' : ''}${Math.round(seconds)}s\n`);
  shift(0);
  return {
    env: {
      LD_PRELOAD: library,
      FAKETIME_TIMESTAMP_FILE: file,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    },
    shift,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
};
