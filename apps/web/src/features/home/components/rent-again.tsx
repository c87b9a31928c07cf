import { Text, Title } from '@mantine/core';
import { Link } from '../../../shared/router/react.tsx';
import type { Reservation } from '@ampere/domain/contract/booking';
import { rentAgain } from '@ampere/domain/home';
import { mainPhoto } from '@ampere/domain/photos';
import { paths } from '../../../shared/paths.ts';
import classes from './home.module.css';

/** 'Rent Again' (spec 2): the first 3 past trips, each a search for the same city and model. */
export function RentAgain({ past }: { past: Reservation[] }) {
  const tiles = rentAgain(past);
  if (tiles.length === 0) return null;
  return (
    <section aria-labelledby="home-rent-again">
      <div className={classes.sectionHead}>
        <Title order={2} size="h3" id="home-rent-again">
          Rent Again
        </Title>
      </div>
      <ul className={`${classes.tiles} ${classes.wideTiles}`}>
        {tiles.map(({ trip, city, model }) => {
          const photo = mainPhoto(trip.vehicle.images);
          return (
            <li key={trip.platform_id}>
              <Link className={`${classes.tile} ${classes.rentAgain}`} to={paths.search({ city, model })}>
                {photo ? (
                  <img className={classes.tileImage} src={photo.image_url} alt="" loading="lazy" />
                ) : (
                  <span className={classes.tileImage} />
                )}
                <span className={classes.tileText}>
                  <Text component="span" fw={700}>
                    {model}
                  </Text>
                  <Text component="span" size="sm" c="dimmed">
                    {city}
                  </Text>
                  <span className={classes.tileAction}>Rent Again →</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
