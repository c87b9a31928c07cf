import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { carSvg, isKnownColor, isKnownView } from './car-art.ts';
import { modelBySlug } from './repository.ts';

const drawn = new Map<string, string>();

/**
 * The picture of a model in a colour from one view (`file` is the view's name plus `.svg`), drawn
 * once per process; null when there is no such model, colour or view.
 */
export async function carPhoto(
  db: Kysely<Database>,
  slug: string,
  color: string,
  file: string,
): Promise<string | null> {
  const view = file.replace(/\.svg$/, '');
  const key = `${slug}/${color}/${view}`;
  const cached = drawn.get(key);
  if (cached) return cached;
  // Unknown colours and views are refused before the database is asked.
  if (!file.endsWith('.svg') || !isKnownColor(color) || !isKnownView(view)) return null;
  const model = await modelBySlug(db, slug);
  if (!model) return null;
  const svg = carSvg(model, color, view);
  drawn.set(key, svg);
  return svg;
}
