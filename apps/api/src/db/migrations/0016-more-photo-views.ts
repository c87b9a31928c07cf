import { type Kysely, sql } from 'kysely';

/**
 * The generated car photos gained views (a rear three-quarter, headlight and tail-light details)
 * and a new gallery order. Catalogues seeded before then get the new views for every model and
 * colour that already has generated photos; photos from fleet data (other URLs) are left alone.
 * The list is written out here, not imported, so this step stays what it was when it ran.
 */
const VIEWS = [
  'MONEYSHOT',
  'FRONT',
  'L_SIDE',
  'RR_CORNER',
  'REAR',
  'R_SIDE',
  'DASH',
  'RF_INTERIOR',
  'HEADLIGHT',
  'WHEEL',
  'TAILLIGHT',
];
const GENERATED = '/media/vehicles/%';

export async function up(db: Kysely<unknown>): Promise<void> {
  const views = sql.join(VIEWS.map((view, position) => sql`(${view}, ${position}::integer)`));
  await sql`
    insert into model_images (model_id, color, view, image_url, position)
    select g.model_id, g.color, v.view, '/media/vehicles/' || m.slug || '/' || lower(g.color) || '/' || lower(v.view) || '.svg', v.position
    from (select distinct model_id, color from model_images where image_url like ${GENERATED}) g
    join vehicle_models m on m.id = g.model_id
    cross join (values ${views}) as v(view, position)
    on conflict (model_id, color, view) do nothing`.execute(db);
  await sql`
    update model_images mi set position = v.position
    from (values ${views}) as v(view, position)
    where mi.view = v.view and mi.image_url like ${GENERATED}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from model_images where view in ('RR_CORNER', 'HEADLIGHT', 'TAILLIGHT') and image_url like ${GENERATED}`.execute(
    db,
  );
}
