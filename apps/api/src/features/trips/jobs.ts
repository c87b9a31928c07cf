import type { Job } from '../../jobs/queue.ts';
import { expireUnpaidChanges } from './change-dates.ts';
import { expireUnpaidHolds } from './expire-holds.ts';
import { settleMoneyOwed } from './outbox-sweep.ts';
import { reauthorizeDepositHolds } from './reauthorize.ts';
import { recordTimedMessages } from './reminders.ts';
import { recordRideStarts } from './rides.ts';
import { settleReturnedDeposits } from './settle-deposit.ts';
import { advanceTripStatus } from './trip-status.ts';
import type { Trips } from './trips.ts';

/**
 * The trip's background jobs and when they run (decision 025). `refresh` tells a renter's open
 * pages to reload their trip: a job that changed one says so.
 */
export function tripJobs(trips: Pick<Trips, 'jobDeps'>, refresh: (userId: string) => Promise<void>): Job[] {
  const deps = trips.jobDeps;
  return [
    {
      name: 'expire-unpaid-holds',
      cron: '* * * * *',
      run: async () => {
        await expireUnpaidHolds({ ...deps, publish: refresh });
        // Changes of dates not paid for lapse the same way (decision 027).
        await expireUnpaidChanges({ ...deps, publish: refresh });
      },
    },
    {
      name: 'advance-trip-status',
      cron: '* * * * *',
      run: async () => {
        // Each renter whose trip changed hears REFRESH once, after every step: the page it reloads
        // then shows the trip On Rent with its Vehicle metrics, or its deposit settled.
        const changed = new Set<string>();
        const note = async (userId: string) => void changed.add(userId);
        await advanceTripStatus({ ...deps, publish: note });
        // Trips gone On Rent get their ride (the car's reading as it goes out); returned trips
        // whose deposit was not settled (a failed or cut-off call) are settled.
        await recordRideStarts({ ...deps, publish: note });
        await settleReturnedDeposits(deps.payments, note);
        for (const userId of changed) await refresh(userId);
      },
    },
    // Refunds, and charge and hold cancellations, a request could not finish at the provider.
    {
      name: 'settle-money-owed',
      cron: '*/5 * * * *',
      run: async () => void (await settleMoneyOwed(deps.payments, refresh)),
    },
    // The messages the clock causes: the day before pickup, a hold about to lapse (decision 070).
    ...(deps.messages
      ? [
          {
            name: 'scan-trip-reminders',
            cron: '* * * * *',
            run: () => recordTimedMessages({ db: deps.db, clock: deps.clock, messages: deps.messages! }),
          },
        ]
      : []),
    // Deposit holds outlive no card network's authorisation window (decision 028).
    {
      name: 'reauthorize-deposit-holds',
      cron: '23 * * * *',
      run: async () => void (await reauthorizeDepositHolds(deps.payments, refresh)),
    },
  ];
}
