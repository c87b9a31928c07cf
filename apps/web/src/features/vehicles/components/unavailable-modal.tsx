import { Button, Group, Modal, Text } from '@mantine/core';
import { Link } from '../../../shared/router/react.tsx';
import { paths } from '../../../shared/paths.ts';

/** Shown when the car was taken for the chosen dates (a 409 on booking). */
export function UnavailableModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Vehicle Unavailable" centered>
      <Text size="sm">
        We're sorry, but the vehicle you've selected is no longer available for your requested dates. Please modify your
        trip dates or search for other vehicles.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button component={Link} to={paths.search()} variant="outline">
          Search Vehicles
        </Button>
        <Button onClick={onClose}>Modify Dates</Button>
      </Group>
    </Modal>
  );
}
