/** Where the API reads "now": every feature takes one of these instead of calling `new Date()`. */
export type Clock = () => Date;

/** The machine's clock. */
export const systemClock: Clock = () => new Date();

/**
 * A clock that reads `start` at `machineNow` and then runs on at the machine's pace, so timers,
 * expiries and "today" all behave as they would at that instant (CLOCK_START, for tests that
 * prove the product and the suite work on any calendar day; see docs/decisions/019-tests-on-any-day.md).
 */
export function clockStartingAt(start: Date, machineNow: number = Date.now()): Clock {
  const offset = start.getTime() - machineNow;
  return () => new Date(Date.now() + offset);
}

/** The clock the configuration asks for: from CLOCK_START when set, else the machine's. */
export function configuredClock(config: { clockStart: Date | undefined }): Clock {
  return config.clockStart ? clockStartingAt(config.clockStart) : systemClock;
}

/**
 * A clock a developer can move forward (or back) while the server runs, like Stripe's test clocks:
 * to live through a trip — its key's window, its return — in minutes. Only with CLOCK_CONTROL=on,
 * which production refuses; it moves this process's clock only.
 */
export interface TestClock {
  clock: Clock;
  /** Moves the clock by `ms`; the new now. */
  advance(ms: number): Date;
}

export function testClock(base: Clock): TestClock {
  let offset = 0;
  const clock: Clock = () => new Date(base().getTime() + offset);
  return {
    clock,
    advance: (ms) => {
      offset += ms;
      return clock();
    },
  };
}
