import { Button, Image, Modal, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { IMAGE_VIEW_NAMES, mainPhoto } from '@ampere/domain/photos';
import type { Vehicle } from '@ampere/domain/contract/catalog';
import { track } from '../../../shared/analytics.ts';
import classes from './vehicle.module.css';

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
      <Modal opened={open} onClose={() => setOpen(false)} fullScreen title={`${name}: all photos`}>
        <Stack maw={960} mx="auto">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {vehicle.images.map((img) => (
              <Image
                key={img.view}
                src={img.image_url}
                alt={alt(img.view)}
                className={classes.photo}
                radius="md"
                loading="lazy"
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Modal>
    </div>
  );
}
