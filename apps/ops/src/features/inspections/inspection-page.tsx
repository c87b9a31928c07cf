import { Alert, Anchor, Badge, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { InspectionResult } from '@ampere/domain/contract/ops-inspections';
import {
  INSPECTION_STAGES,
  INSPECTION_STAGE_LABELS,
  INSPECTION_VIEWS,
  type InspectionStage,
} from '@ampere/domain/inspections';
import { errorText } from '../../shared/api.ts';
import { formatDayTime } from '../../shared/dates.ts';
import { useCan } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { ComparePanel } from './compare-panel.tsx';
import { DamagePanel } from './damage-panel.tsx';
import { completeInspection, inspectionKeys, inspectionQuery, startInspection } from './inspections-api.ts';
import { PhotoFigure } from './photo-figure.tsx';
import { ViewStep } from './view-step.tsx';

const isStage = (s: string | undefined): s is InspectionStage =>
  (INSPECTION_STAGES as readonly string[]).includes(s ?? '');

/** /trips/:tripId/inspections/:stage — the check-out or return inspection of a trip (decision 089). */
export function InspectionPage() {
  const { tripId = '', stage = '' } = useParams();
  if (!isStage(stage))
    return (
      <Alert color="red" role="alert">
        There is no inspection “{stage}”: open the check-out or return inspection from the trip.
      </Alert>
    );
  return <Inspection key={`${tripId}-${stage}`} tripId={tripId} stage={stage} />;
}

function Inspection({ tripId, stage }: { tripId: string; stage: InspectionStage }) {
  const label = INSPECTION_STAGE_LABELS[stage];
  useTitle(`${label} · trip ${tripId}`);
  const can = useCan();
  const queryClient = useQueryClient();
  const query = useQuery(inspectionQuery(tripId, stage));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const saved = (result?: InspectionResult) => {
    if (result) queryClient.setQueryData(inspectionKeys.stage(tripId, stage), result);
    void queryClient.invalidateQueries({ queryKey: inspectionKeys.all(tripId) });
  };
  const act = async (work: () => Promise<InspectionResult>, done: string) => {
    setBusy(true);
    setMessage(null);
    try {
      saved(await work());
      setMessage({ ok: true, text: done });
    } catch (err) {
      setMessage({ ok: false, text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  const header = (
    <>
      <Anchor component={Link} to={paths.trip(tripId)} size="sm">
        ← Trip {query.data?.trip.reference ?? tripId}
      </Anchor>
      <Title order={1}>{label}</Title>
    </>
  );
  if (query.isError)
    return (
      <Stack>
        {header}
        <Alert color="red" role="alert">
          {errorText(query.error)}
        </Alert>
      </Stack>
    );
  if (query.isPending)
    return (
      <Stack>
        {header}
        <Loader role="status" aria-label={`Loading the ${label.toLowerCase()}`} />
      </Stack>
    );

  const { trip, inspection } = query.data;
  const zone = trip.timezone;
  const completed = !!inspection?.completedAt;
  const canRecord = can('inspections.record') && !completed && trip.status !== 'Canceled' && trip.status !== 'Started';
  const taken = new Map((inspection?.views ?? []).map((p) => [p.view, p] as const));
  const missing = inspection?.missingViews ?? [...INSPECTION_VIEWS];
  const next = canRecord ? missing[0] : undefined;

  return (
    <Stack>
      {header}
      <Paper withBorder p="md" component="section" aria-labelledby="inspection-summary">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="inspection-summary">
              {trip.car.year} {trip.car.model} · VIN {trip.car.vin}
            </Title>
            <Text size="sm" c="dimmed">
              Pickup {formatDayTime(trip.pickupAt, zone)} · Return {formatDayTime(trip.returnAt, zone)}
            </Text>
          </div>
          {completed ? (
            <Badge color="ampere" size="lg">
              Completed
            </Badge>
          ) : (
            <Badge color="gray.7" size="lg">
              {INSPECTION_VIEWS.length - missing.length} of {INSPECTION_VIEWS.length} views
            </Badge>
          )}
        </Group>
        {inspection && (
          <Text size="sm" mt="xs">
            Started {formatDayTime(inspection.startedAt, zone)}
            {inspection.startedBy ? ` by ${inspection.startedBy}` : ' (by the renter’s photos)'}
            {inspection.completedAt &&
              ` · completed ${formatDayTime(inspection.completedAt, zone)}${inspection.completedBy ? ` by ${inspection.completedBy}` : ''}`}
          </Text>
        )}
        {!inspection && can('inspections.record') && canRecord && (
          <Button
            mt="sm"
            onClick={() => void act(() => startInspection(tripId, stage), `${label} started.`)}
            loading={busy}
          >
            Start the {label.toLowerCase()}
          </Button>
        )}
        {!can('inspections.record') && (
          <Text size="sm" c="dimmed" mt="xs">
            Your role can look at inspections but not record them.
          </Text>
        )}
      </Paper>

      <section aria-labelledby="views-title">
        <Title order={2} size="h4" id="views-title" mb="xs">
          The eight views
        </Title>
        <SimpleGrid
          cols={{ base: 1, xs: 2, md: 4 }}
          spacing="sm"
          component="ol"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {INSPECTION_VIEWS.map((view) => (
            <ViewStep
              key={view}
              tripId={tripId}
              stage={stage}
              view={view}
              photo={taken.get(view) ?? null}
              zone={zone}
              isNext={view === next}
              canRecord={canRecord}
              onSaved={saved}
            />
          ))}
        </SimpleGrid>
      </section>

      <DamagePanel
        tripId={tripId}
        stage={stage}
        marks={inspection?.damage ?? []}
        zone={zone}
        canRecord={canRecord}
        onChanged={saved}
      />

      <Paper withBorder p="md" component="section" aria-labelledby="renter-photos-title">
        <Title order={2} size="h4" id="renter-photos-title" mb="xs">
          Renter’s photos ({inspection?.renterPhotos.length ?? 0})
        </Title>
        {inspection?.renterPhotos.length ? (
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
            {inspection.renterPhotos.map((p, i) => (
              <PhotoFigure key={p.id} photo={p} zone={zone} alt={`Renter’s photo ${i + 1}`} />
            ))}
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed">
            The renter can add their own photos from the trip or key page{' '}
            {stage === 'check_out' ? 'at pickup' : 'at return'}; they show here.
          </Text>
        )}
      </Paper>

      {message && (
        <Alert color={message.ok ? 'ampere' : 'red'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </Alert>
      )}
      {canRecord && inspection && (
        <Group>
          <Button
            onClick={() => void act(() => completeInspection(tripId, stage), `${label} completed.`)}
            loading={busy}
            disabled={missing.length > 0}
          >
            Complete the {label.toLowerCase()}
          </Button>
          {missing.length > 0 && (
            <Text size="sm" c="dimmed">
              {missing.length} {missing.length === 1 ? 'view' : 'views'} still to take.
            </Text>
          )}
        </Group>
      )}

      {stage === 'check_in' && <ComparePanel tripId={tripId} zone={zone} />}
    </Stack>
  );
}
