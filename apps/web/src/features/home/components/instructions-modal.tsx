import { Modal, Text } from '@mantine/core';
import type { Reservation } from '@ampere/domain/contract/booking';
import { addressLine } from '@ampere/domain/format';
import { LocationInstructions } from '../../../shared/ui/location-instructions.tsx';

export interface InstructionsModalProps {
  opened: boolean;
  onClose(): void;
  trip: Reservation;
}

/** The upcoming trip's pickup and return instructions, in a dialog loaded when first opened. */
export function InstructionsModal({ opened, onClose, trip: r }: InstructionsModalProps) {
  const place = r.pickup_location;
  return (
    <Modal opened={opened} onClose={onClose} title="Pickup/Return Instructions" size="lg">
      <Text size="sm" c="dimmed" mb="sm">{`${place.name} · ${addressLine(place)}`}</Text>
      <LocationInstructions
        pickupHtml={place.pickup_instructions_html}
        returnHtml={r.dropoff_location.return_instructions_html}
      />
    </Modal>
  );
}
