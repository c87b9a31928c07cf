import { Alert, Button, Card, Group, Image, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { CarSummary } from '@ampere/domain/contract/ops-fleet';
import { IMAGE_VIEWS, type ImageView } from '@ampere/domain/constants';
import { IMAGE_VIEW_NAMES, PHOTO_MAX_BYTES } from '@ampere/domain/photos';
import { formatInstantInZone } from '@ampere/domain/format';
import { errorText } from '../../shared/api.ts';
import { useCan } from '../../shared/me.ts';
import { carPhotosQuery, fleetKeys, removePhoto, uploadPhoto } from './fleet-api.ts';

/** "Front three-quarter view" from "front three-quarter view". */
const title = (view: ImageView) => IMAGE_VIEW_NAMES[view].charAt(0).toUpperCase() + IMAGE_VIEW_NAMES[view].slice(1);

/**
 * A car's photos, one card per view (decision 085): its own photo where one was uploaded, else the
 * model's drawing that renters see until then. Uploading sends the file as it is and shows its
 * progress; a file the server refuses (not an image, too large, too many pixels) shows its words.
 */
export function CarPhotos({ car, drawings }: { car: CarSummary; drawings: { view: string; url: string }[] }) {
  const photos = useQuery(carPhotosQuery(car.id));
  const own = new Map((photos.data?.photos ?? []).map((p) => [p.view, p] as const));
  const drawn = new Map(drawings.map((d) => [d.view, d.url] as const));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="car-photos">
      <Title order={2} size="h3" id="car-photos">
        Photos
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        A photo replaces the model’s drawing for this car on every renter page. JPEG, PNG, WebP or AVIF, up to{' '}
        {Math.round(PHOTO_MAX_BYTES / 1024 / 1024)} MB.
      </Text>
      {photos.isError && (
        <Alert color="red" role="alert" mb="sm">
          {errorText(photos.error)}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, md: 3, lg: 4 }} spacing="sm">
        {IMAGE_VIEWS.map((view) => {
          const photo = own.get(view);
          return (
            <PhotoCard
              key={view}
              car={car}
              view={view}
              url={photo?.imageUrl ?? drawn.get(view) ?? null}
              uploadedAt={photo?.uploadedAt ?? null}
            />
          );
        })}
      </SimpleGrid>
    </Paper>
  );
}

function PhotoCard({
  car,
  view,
  url,
  uploadedAt,
}: {
  car: CarSummary;
  view: ImageView;
  url: string | null;
  uploadedAt: string | null;
}) {
  const can = useCan();
  const queryClient = useQueryClient();
  const inputId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const name = title(view);

  const refresh = () => queryClient.invalidateQueries({ queryKey: fleetKeys.car(car.id) });
  const upload = async (file: File) => {
    setMessage(null);
    setProgress(0);
    try {
      await uploadPhoto(car.id, view, file, setProgress);
      await refresh();
      setMessage({ ok: true, text: `${name}: the photo is uploaded.` });
    } catch (err) {
      setMessage({ ok: false, text: errorText(err) });
    } finally {
      setProgress(null);
    }
  };
  const remove = async () => {
    if (!window.confirm(`Remove the ${IMAGE_VIEW_NAMES[view]} photo? Renters see the model’s drawing again.`)) return;
    setMessage(null);
    try {
      await removePhoto(car.id, view);
      await refresh();
      setMessage({ ok: true, text: `${name}: the photo is removed.` });
    } catch (err) {
      setMessage({ ok: false, text: errorText(err) });
    }
  };

  return (
    <Card withBorder padding="sm" component="article" aria-label={`${name} (${view})`} data-view={view}>
      <Card.Section>
        {url ? (
          <Image src={url} alt={`${car.model}, ${IMAGE_VIEW_NAMES[view]}`} h={140} fit="contain" bg="gray.0" />
        ) : (
          <Text h={140} size="sm" c="dimmed" ta="center" pt={56} bg="gray.0">
            No image
          </Text>
        )}
      </Card.Section>
      <Stack gap={6} mt="xs">
        <Text fw={600} size="sm">
          {name}{' '}
          <Text span size="xs" c="dimmed" ff="monospace">
            {view}
          </Text>
        </Text>
        <Text size="xs" c="dimmed">
          {uploadedAt ? `Photo uploaded ${formatInstantInZone(uploadedAt, car.timezone)}` : 'The model’s drawing'}
        </Text>
        {progress !== null && (
          <Progress value={Math.round(progress * 100)} aria-label={`Uploading the ${IMAGE_VIEW_NAMES[view]} photo`} />
        )}
        {message && (
          <Text size="xs" c={message.ok ? 'ampere.9' : 'red.9'} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </Text>
        )}
        <Group gap="xs">
          {can('photos.upload') && car.status !== 'retired' && (
            <>
              <label htmlFor={inputId} className="ops-file-button">
                {uploadedAt ? 'Replace photo' : 'Upload photo'}
              </label>
              <input
                id={inputId}
                type="file"
                accept="image/jpeg,image/png,image/webp,image/avif"
                className="ops-file-input"
                aria-label={`Upload the ${IMAGE_VIEW_NAMES[view]} photo (${view})`}
                disabled={progress !== null}
                onChange={(e) => {
                  const file = e.currentTarget.files?.[0];
                  e.currentTarget.value = '';
                  if (file) void upload(file);
                }}
              />
            </>
          )}
          {can('photos.delete') && uploadedAt && (
            <Button size="compact-xs" variant="outline" color="red.9" onClick={() => void remove()}>
              Remove
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
