import { SimpleGrid, Title } from '@mantine/core';
import classes from './location-instructions.module.css';

/** A location's pickup and return instructions (its own HTML), side by side from the small breakpoint. */
export function LocationInstructions({ pickupHtml, returnHtml }: { pickupHtml: string; returnHtml: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <div>
        <Title order={3} size="h5" mb={4}>Pickup instructions</Title>
        <div className={classes.instructions} dangerouslySetInnerHTML={{ __html: pickupHtml }} />
      </div>
      <div>
        <Title order={3} size="h5" mb={4}>Return instructions</Title>
        <div className={classes.instructions} dangerouslySetInnerHTML={{ __html: returnHtml }} />
      </div>
    </SimpleGrid>
  );
}
