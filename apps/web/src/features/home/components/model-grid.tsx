import { Skeleton, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link } from '../../../shared/router/react.tsx';
import { MODEL_SKELETONS } from '@ampere/domain/home';
import { paths } from '../../../shared/paths.ts';
import { useVehicleModels } from '../public/get-vehicle-models.ts';
import classes from './home.module.css';

/**
 * Search by model (spec 2): one tile per model in the fleet, each a search for that model that
 * keeps the place and dates already chosen above; 7 skeletons while the models load.
 */
export function ModelGrid({ searchQuery }: { searchQuery: Record<string, string | undefined> }) {
  const models = useVehicleModels();
  useEffect(() => {
    if (models.error) console.error('Could not load the vehicle models', models.error);
  }, [models.error]);
  // Spec 8: a models failure is only logged; the section steps aside rather than sit empty.
  if (models.isError || models.data?.length === 0) return null;
  return (
    <section aria-labelledby="home-models">
      <div className={classes.sectionHead}>
        <Title order={2} size="h3" id="home-models">
          Search by model
        </Title>
      </div>
      {models.isPending ? (
        <ul className={classes.tiles} aria-busy="true" aria-label="Loading models">
          {Array.from({ length: MODEL_SKELETONS }, (_, i) => (
            <li key={i}>
              <Skeleton height={150} radius="md" />
            </li>
          ))}
        </ul>
      ) : (
        <ul className={classes.tiles}>
          {models.data.map((m) => (
            <li key={m.name}>
              <Link className={classes.tile} to={paths.search({ ...searchQuery, model: m.name })}>
                <img className={classes.tileImage} src={m.public_image_link} alt="" loading="lazy" />
                <span className={classes.tileText}>
                  <Text component="span" fw={700}>
                    {m.name}
                  </Text>
                  <Text component="span" size="sm" c="dimmed">{`${m.type} · ${m.mile_range} mi range`}</Text>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
