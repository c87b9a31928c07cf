import { SimpleGrid, Title } from '@mantine/core';
import { sanitizeInstructionsHtml } from './instructions-html.ts';
import classes from './location-instructions.module.css';
import { useInBrowser } from './use-in-browser.ts';

/**
 * A location's pickup and return instructions (its own HTML, sanitised), side by side from the small
 * breakpoint. The sanitiser needs the browser's DOM, so a first screen drawn on the server has the
 * headings and the browser fills the instructions in.
 */
export function LocationInstructions({ pickupHtml, returnHtml }: { pickupHtml: string; returnHtml: string }) {
  const inBrowser = useInBrowser();
  const html = (source: string) => ({ __html: inBrowser ? sanitizeInstructionsHtml(source) : '' });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <div>
        <Title order={3} size="h5" mb={4}>
          Pickup instructions
        </Title>
        <div className={classes.instructions} dangerouslySetInnerHTML={html(pickupHtml)} />
      </div>
      <div>
        <Title order={3} size="h5" mb={4}>
          Return instructions
        </Title>
        <div className={classes.instructions} dangerouslySetInnerHTML={html(returnHtml)} />
      </div>
    </SimpleGrid>
  );
}
