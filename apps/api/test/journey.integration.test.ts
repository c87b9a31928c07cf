import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { engines } from './harness.ts';
import { describeJourney, journeyArbitrary } from './journey-plan.ts';
import { runJourney } from './journey-steps.ts';
import { type SandboxContext, createSandboxContext } from './sandbox-context.ts';

/**
 * Generated journeys (decision 055): whole trips booked, paid, changed, cancelled, extended and
 * returned through the API, each by a renter of its own, and after every stage everything the
 * renter can read is read: nothing answers 5xx, and the provider's books, the ledger and the
 * receipt agree to the cent.
 *
 *   JOURNEY_TRIPS=500                      more trips than the default (100, shared out among the engines)
 *   JOURNEY_SEED=… JOURNEY_PATH=…          replays the failing trip a run printed (on every engine)
 *
 * With two engines each runs half the trips, from seeds of its own (decision 078): the run still
 * walks 100 different trips, each on one engine, rather than the same 100 twice.
 *   JOURNEY_SHRINK=on                      looks for a smaller failing trip (slow: each try is a trip)
 */

const ENGINES = engines();
const TRIPS = Math.ceil(Number(process.env.JOURNEY_TRIPS ?? 100) / ENGINES.length);
const GIVEN_SEED = process.env.JOURNEY_SEED ? Number(process.env.JOURNEY_SEED) : undefined;
const RUN_SEED = Math.floor(Math.random() * 2 ** 31);
const PATH = process.env.JOURNEY_PATH;

describe.each(ENGINES)('generated journeys on %s', (engine) => {
  const SEED = GIVEN_SEED ?? (RUN_SEED + ENGINES.indexOf(engine)) % 2 ** 31;
  let ctx: SandboxContext;
  let fleet: SimulatedFleet;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
    fleet = new SimulatedFleet(ctx.handle.db, () => ctx.clock.now);
  });
  afterAll(() => ctx?.close());

  it(
    `${TRIPS} trips from booking to their end: no 5xx, and the provider, the ledger and the receipt agree to the cent`,
    async () => {
      console.log(`journeys on ${engine}: ${TRIPS} trips, JOURNEY_SEED=${SEED}`);
      const endings = new Map<string, number>();
      const details = await fc.check(
        fc.asyncProperty(journeyArbitrary, async (j) => {
          const ending = await runJourney(ctx, fleet, j);
          endings.set(ending, (endings.get(ending) ?? 0) + 1);
        }),
        {
          seed: SEED,
          ...(PATH ? { path: PATH } : {}),
          // A path replays that one trip.
          numRuns: PATH ? 1 : TRIPS,
          endOnFailure: process.env.JOURNEY_SHRINK !== 'on',
        },
      );
      console.log(`journeys on ${engine} ended: ${[...endings].map(([e, n]) => `${n} ${e}`).join('; ')}`);
      if (details.failed) {
        const [journey] = details.counterexample ?? [];
        throw new Error(
          [
            `A journey on ${engine} failed after ${details.numRuns} trip(s).`,
            `Replay it: JOURNEY_SEED=${details.seed} JOURNEY_PATH=${details.counterexamplePath} npx vitest run --project integration apps/api/test/journey.integration.test.ts`,
            `The trip: ${journey ? describeJourney(journey) : '(none)'}`,
            `What went wrong: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
          ].join('\n'),
          { cause: details.errorInstance },
        );
      }
    },
    Math.max(120_000, TRIPS * 4_000),
  );
});
