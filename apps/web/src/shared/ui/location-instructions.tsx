import { SimpleGrid, Title } from '@mantine/core';
import { sanitizeInstructionsHtml } from './instructions-html.ts';
import classes from './location-instructions.module.css';

/** A location's pickup and return instructions (its own HTML, sanitised), side by side from the small breakpoint. */
export function LocationInstructions({ pickupHtml, returnHtml }: { pickupHtml: string; returnHtml: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <div>
        <Title order={3} size="h5" mb={4}>
          Pickup instructions
        </Title>
        <div
          className={classes.instructions}
          dangerouslySetInnerHTML={{ __html: sanitizeInstructionsHtml(pickupHtml) }}
        />
      </div>
      <div>
        <Title order={3} size="h5" mb={4}>
          Return instructions
        </Title>
        <div
          className={classes.instructions}
          dangerouslySetInnerHTML={{ __html: sanitizeInstructionsHtml(returnHtml) }}
        />
      </div>
    </SimpleGrid>
  );
}
