/**
 * Vitest setup for both projects. With TEST_NOW set (an ISO instant), this process's calendar
 * starts at that instant and runs on: `new Date()` and `Date.now()` read as if the tests were run
 * then, while timers, `performance.now()` and the database server keep real time. A test that
 * passes on the machine's day but not at TEST_NOW leans on the calendar (`npm run test:any-day`
 * tries several instants; docs/decisions/019-tests-on-any-day.md). Without TEST_NOW, nothing changes.
 *
 * Not `vi.setSystemTime`: without fake timers it holds the time still, and code that waits for a
 * deadline by reading the clock would wait for ever.
 */
const start = process.env.TEST_NOW;
if (start) {
  const at = Date.parse(start);
  if (Number.isNaN(at) || !/(Z|[+-]\d\d:\d\d)$/.test(start))
    throw new Error(`TEST_NOW must be an ISO 8601 instant with an offset, e.g. 2027-03-14T07:30:00Z (got ${start}).`);
  const MachineDate = Date;
  const offset = at - MachineDate.now();
  class ShiftedDate extends MachineDate {
    constructor(...args: ConstructorParameters<DateConstructor> | []) {
      if (args.length === 0) super(MachineDate.now() + offset);
      else super(...(args as [string | number | Date]));
    }

    static override now(): number {
      return MachineDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}
