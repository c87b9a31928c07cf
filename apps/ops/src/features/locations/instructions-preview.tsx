import { SimpleGrid, Title } from '@mantine/core';
import DOMPurify from 'dompurify';
import {
  INSTRUCTIONS_SHOWN_ATTRIBUTES,
  INSTRUCTIONS_SHOWN_LINKS,
  INSTRUCTIONS_SHOWN_TAGS,
} from '@ampere/domain/location-instructions';
import classes from './instructions-preview.module.css';

/** The instructions' HTML as the renter's pages render it: their sanitiser's lists (decision 039). */
const asRenterSees = (html: string) => ({
  __html: DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...INSTRUCTIONS_SHOWN_TAGS],
    ALLOWED_ATTR: [...INSTRUCTIONS_SHOWN_ATTRIBUTES],
    ALLOWED_URI_REGEXP: INSTRUCTIONS_SHOWN_LINKS,
  }),
});

/**
 * The pickup and return instructions laid out as the renter's car, trip and home pages show them:
 * side by side from the small breakpoint, each under its small heading, paragraphs in 14 px.
 */
export function InstructionsPreview({ pickupHtml, returnHtml }: { pickupHtml: string; returnHtml: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <div>
        <Title order={3} size="h5" mb={4}>
          Pickup instructions
        </Title>
        <div className={classes.instructions} dangerouslySetInnerHTML={asRenterSees(pickupHtml)} />
      </div>
      <div>
        <Title order={3} size="h5" mb={4}>
          Return instructions
        </Title>
        <div className={classes.instructions} dangerouslySetInnerHTML={asRenterSees(returnHtml)} />
      </div>
    </SimpleGrid>
  );
}
