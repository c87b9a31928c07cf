import type { FastifyInstance } from 'fastify';
import { ConfigError } from './config.ts';
import type { DatabaseHandle } from './db/connect.ts';

/** Closes the app (its jobs finish first) and the database on SIGINT or SIGTERM, then exits. */
export function stopOnSignals(app: FastifyInstance, handle: DatabaseHandle): void {
  const stop = async () => {
    await app.close();
    await handle.close();
    process.exit(0);
  };
  // A failing close still has to end the process, with the reason printed.
  const onSignal = () => {
    stop().catch((err: unknown) => {
      console.error('Shutting down failed', err);
      process.exit(1);
    });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

/** Runs a process's main; a configuration problem is printed as its message alone, then the process exits 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
