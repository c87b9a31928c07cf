import { Skeleton, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { CSSProperties } from 'react';
import { Link } from '../../../shared/router/react.tsx';
import { HOME_CITIES } from '@ampere/domain/constants';
import { CITY_SKELETONS } from '@ampere/domain/home';
import { paths } from '../../../shared/paths.ts';
import { citiesQueryOptions } from '../../search/public/search-options.ts';
import classes from './home.module.css';

// Each city's tile colours (dark enough for white text at 4.5:1).
const COLOURS: Record<(typeof HOME_CITIES)[number], [string, string]> = {
  'Nashville, TN': ['#0b3d2e', '#0b6a3f'],
  'St Louis, MO': ['#1c3d6e', '#2b5a9e'],
  'Dallas, TX': ['#6b2d0f', '#9c4410'],
  'Austin, TX': ['#4a2a6b', '#6b3d99'],
  'Phoenix, AZ': ['#8a2a16', '#a8391d'],
  'Las Vegas, NV': ['#3a2f6b', '#9c1e5c'],
};

/**
 * Search by city (spec 2): the fixed six, each linking to /search?city='City, ST', where search
 * finds the place by that name. Skeletons while the place list the links lead into is loading.
 */
export function CityGrid() {
  const cities = useQuery(citiesQueryOptions());
  return (
    <section aria-labelledby="home-cities">
      <div className={classes.sectionHead}>
        <Title order={2} size="h3" id="home-cities">
          Search by city
        </Title>
      </div>
      {cities.isPending ? (
        <ul className={classes.tiles} aria-busy="true" aria-label="Loading cities">
          {Array.from({ length: CITY_SKELETONS }, (_, i) => (
            <li key={i}>
              <Skeleton height={132} radius="md" />
            </li>
          ))}
        </ul>
      ) : (
        <ul className={classes.tiles}>
          {HOME_CITIES.map((city) => {
            const [name, state] = city.split(', ') as [string, string];
            const [from, to] = COLOURS[city];
            return (
              <li key={city}>
                <Link
                  className={`${classes.tile} ${classes.city}`}
                  style={{ '--from': from, '--to': to } as CSSProperties}
                  to={paths.search({ city })}
                >
                  {/* Named by the words it shows, 'Nashville TN' (WCAG 2.5.3); 'Explore cars' only decorates. */}
                  <span className={classes.cityName}>{name}</span>
                  <span className={classes.cityState}>{state}</span>
                  <span className={classes.cityAction} aria-hidden="true">
                    Explore cars →
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
