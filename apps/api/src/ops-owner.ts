import { parseArgs } from 'node:util';
import { configuredClock } from './clock.ts';
import { loadConfig } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ensureOwner } from './features/staff/owner.ts';

/**
 * `npm run ops:owner -- --phone "(615) 555-0100" --name "Olivia Reyes"`: makes the operator
 * console's first owner in the configured database (DATABASE_URL, or the embedded one under
 * DATA_DIR). They sign in with a code texted to that number; owners invite the other staff.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { phone: { type: 'string' }, name: { type: 'string' } } });
  if (!values.phone || !values.name)
    throw new Error('Usage: npm run ops:owner -- --phone "(615) 555-0100" --name "Olivia Reyes"');
  const config = loadConfig();
  const handle = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgliteTemplate: config.pgliteTemplate,
  });
  try {
    await migrateToLatest(handle.db);
    const { created, staff } = await ensureOwner(handle.db, {
      phone: values.phone,
      name: values.name,
      now: configuredClock(config)(),
    });
    console.log(
      created
        ? `${staff.name} (${staff.phone}) is now an owner.`
        : `${staff.name} (${staff.phone}) was already an owner.`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
