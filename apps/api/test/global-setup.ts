import type { TestProject } from 'vitest/node';
import { TEST_NOW, makeTemplates } from './templates.ts';

/**
 * Once per integration run, before any test file: the databases every test database is copied from
 * (templates.ts), made from the migrations and the seed as they are in this checkout, and dropped
 * when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = performance.now();
  const { templates, remove } = await makeTemplates(TEST_NOW, process.env.TEST_DATABASE_URL);
  const engines = templates.postgres ? 'PGlite and PostgreSQL' : 'PGlite';
  console.log(`Template databases (${engines}) ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  project.provide('databaseTemplates', templates);
  return remove;
}
