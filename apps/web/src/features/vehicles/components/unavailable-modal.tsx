import { Button, Group, Modal, Text } from '@mantine/core';
import { Link } from '../../../shared/router/react.tsx';

/**
 * Shown when the car was taken for the chosen dates (a 409 on booking). Search Vehicles opens the
 * search the renter came with: the same place and dates (`searchTo`).
 */
export function UnavailableModal({
  opened,
  onClose,
  searchTo,
}: {
  opened: boolean;
  onClose(): void;
  searchTo: string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Vehicle Unavailable" centered>
      <Text size="sm">
        We're sorry, but the vehicle you've selected is no longer available for your requested dates. Please modify your
        trip dates or search for other vehicles.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button component={Link} to={searchTo} variant="outline">
          Search Vehicles
        </Button>
        <Button onClick={onClose}>Modify Dates</Button>
      </Group>
    </Modal>
  );
}
