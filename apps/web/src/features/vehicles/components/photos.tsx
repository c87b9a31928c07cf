import { Button, Image } from '@mantine/core';
import { Suspense, lazy, useState } from 'react';
import { IMAGE_VIEW_NAMES, mainPhoto } from '@ampere/domain/photos';
import type { Vehicle } from '@ampere/domain/contract/catalog';
import { track } from '../../../shared/analytics.ts';
import classes from './vehicle.module.css';

// Loaded only when the renter opens it (its code and styles are not part of the page's first load).
const PhotoGallery = lazy(() => import('./photo-gallery.tsx'));

/** Main, side and interior photos, and a full-screen gallery of every view. */
export function Photos({ vehicle }: { vehicle: Vehicle }) {
  const [open, setOpen] = useState(false);
  const name = `${vehicle.year} ${vehicle.model.name}`;
  const byView = (v: string) => vehicle.images.find((i) => i.view === v);
  const main = mainPhoto(vehicle.images);
  const side = byView('L_SIDE');
  const interior = byView('RF_INTERIOR');
  const alt = (view: keyof typeof IMAGE_VIEW_NAMES) => `${name}, ${IMAGE_VIEW_NAMES[view]}`;
  return (
    <div>
      <div className={classes.photos}>
        {main && (
          <Image src={main.image_url} alt={alt(main.view)} className={classes.photo} radius="md" fetchPriority="high" />
        )}
        <div className={classes.sidePhotos}>
          {side && <Image src={side.image_url} alt={alt(side.view)} className={classes.photo} radius="md" />}
          {interior && (
            <Image src={interior.image_url} alt={alt(interior.view)} className={classes.photo} radius="md" />
          )}
        </div>
      </div>
      <Button
        variant="default"
        size="xs"
        mt="xs"
        onClick={() => {
          setOpen(true);
          track('vehicle_photos_viewed', { vin: vehicle.vin });
        }}
      >
        Show all photos
      </Button>
      {open && (
        <Suspense fallback={null}>
          <PhotoGallery
            title={`${name}: all photos`}
            photos={vehicle.images.map((img) => ({ src: img.image_url, alt: alt(img.view) }))}
            index={0}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
