import { Anchor, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { INSPECTION_STAGES, INSPECTION_STAGE_LABELS, type InspectionStage } from '@ampere/domain/inspections';
import { paths } from '../../shared/paths.ts';

/** The way from a trip to its check-out and return inspections. */
export function InspectionLinks({ tripId }: { tripId: string }) {
  return (
    <Group gap="xs" component="nav" aria-label="Inspections">
      {INSPECTION_STAGES.map((stage) => (
        <Button key={stage} component={Link} to={paths.inspection(tripId, stage)} variant="light" size="xs">
          {INSPECTION_STAGE_LABELS[stage]}
        </Button>
      ))}
    </Group>
  );
}

/** A board card's way to one inspection of its trip. */
export function InspectionLink({ reference, stage }: { reference: string; stage: InspectionStage }) {
  return (
    <Anchor component={Link} to={paths.inspection(reference, stage)} size="sm" fw={600}>
      {INSPECTION_STAGE_LABELS[stage]}
    </Anchor>
  );
}
