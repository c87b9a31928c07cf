import { Alert, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Inspection, InspectionPhoto } from '@ampere/domain/contract/ops-inspections';
import { DAMAGE_SEVERITY_LABELS, INSPECTION_VIEW_LABELS } from '@ampere/domain/inspections';
import { errorText } from '../../shared/api.ts';
import { CarDrawing } from './car-drawing.tsx';
import { compareQuery } from './inspections-api.ts';
import { PhotoFigure } from './photo-figure.tsx';
import classes from './inspections.module.css';

const SIDES = [
  { key: 'checkOut', title: 'At check-out', tone: 'out', prefix: 'O' },
  { key: 'checkIn', title: 'At return', tone: 'in', prefix: 'R' },
] as const;

function Slot({ photo, alt, zone }: { photo: InspectionPhoto | null; alt: string; zone: string }) {
  return photo ? <PhotoFigure photo={photo} alt={alt} zone={zone} /> : <div className={classes.empty}>No photo</div>;
}

/**
 * The return inspection beside the check-out one (issue 30 §1): each view's two photos side by
 * side, then both drawings with their damage marks, and both sides' renter photos.
 */
export function ComparePanel({ tripId, zone }: { tripId: string; zone: string }) {
  const compare = useQuery(compareQuery(tripId));
  if (compare.isError)
    return (
      <Alert color="red" role="alert">
        {errorText(compare.error)}
      </Alert>
    );
  if (compare.isPending) return <Loader role="status" aria-label="Loading the comparison" />;
  const data = compare.data;
  const marksOf = (i: Inspection | null, tone: 'out' | 'in', prefix: string) =>
    (i?.damage ?? []).map((d, n) => ({ id: d.id, x: d.x, y: d.y, label: `${prefix}${n + 1}`, tone }));

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="compare-title">
      <Title order={2} size="h4" id="compare-title" mb="xs">
        Check-out and return, side by side
      </Title>
      {!data.checkOut && (
        <Text size="sm" c="#a63e00" mb="xs">
          No check-out inspection was recorded for this trip.
        </Text>
      )}
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {data.views.map((v) => (
            <section key={v.view} aria-label={`${INSPECTION_VIEW_LABELS[v.view]}: check-out and return`}>
              <Text fw={600} size="sm" mb={4}>
                {INSPECTION_VIEW_LABELS[v.view]}
              </Text>
              <SimpleGrid cols={2} spacing="xs">
                {SIDES.map((side) => (
                  <div key={side.key}>
                    <Text size="xs" c="dimmed" fw={600} mb={2}>
                      {side.title}
                    </Text>
                    <Slot
                      photo={v[side.key]}
                      zone={zone}
                      alt={`${INSPECTION_VIEW_LABELS[v.view]} ${side.key === 'checkOut' ? 'at check-out' : 'at return'}`}
                    />
                  </div>
                ))}
              </SimpleGrid>
            </section>
          ))}
        </SimpleGrid>
        <SimpleGrid cols={2} spacing="sm">
          {SIDES.map((side) => {
            const inspection = data[side.key];
            const marks = marksOf(inspection, side.tone, side.prefix);
            return (
              <section key={side.key} aria-label={`Damage ${side.title.toLowerCase()}`}>
                <Text fw={600} size="sm" mb={4}>
                  Damage {side.title.toLowerCase()} ({marks.length})
                </Text>
                <CarDrawing marks={marks} title={`Damage marked ${side.title.toLowerCase()}`} />
                <ul style={{ margin: '8px 0 0', padding: 0, listStyle: 'none' }}>
                  {(inspection?.damage ?? []).map((d, n) => (
                    <li key={d.id}>
                      <Text size="sm">
                        <b>
                          {side.prefix}
                          {n + 1}
                        </b>{' '}
                        {INSPECTION_VIEW_LABELS[d.view]}, {DAMAGE_SEVERITY_LABELS[d.severity].toLowerCase()}: {d.note}
                      </Text>
                    </li>
                  ))}
                </ul>
                {(inspection?.renterPhotos.length ?? 0) > 0 && (
                  <Text size="sm" fw={600} mt="xs">
                    The renter’s photos {side.title.toLowerCase()}
                  </Text>
                )}
                {(inspection?.renterPhotos.length ?? 0) > 0 && (
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
                    {inspection!.renterPhotos.map((p, n) => (
                      <PhotoFigure
                        key={p.id}
                        photo={p}
                        zone={zone}
                        alt={`Renter’s photo ${n + 1} ${side.title.toLowerCase()}`}
                      />
                    ))}
                  </SimpleGrid>
                )}
              </section>
            );
          })}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
