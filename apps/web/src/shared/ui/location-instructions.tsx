import { SimpleGrid, Title } from '@mantine/core';
import { startTransition, useEffect, useState } from 'react';
import classes from './location-instructions.module.css';
import { useInBrowser } from './use-in-browser.ts';

type Sanitise = (html: string) => string;

let sanitiser: Sanitise | null = null;
let loading: Promise<Sanitise> | null = null;

/**
 * The sanitiser (DOMPurify) loads when instructions are first shown in the browser, not with the
 * page: evaluating it was part of the longest task before the take-over on the home, trip and car
 * pages, whose instructions are below the fold or in a closed dialog (decision 066).
 */
function loadSanitiser(): Promise<Sanitise> {
  loading ??= import('./instructions-html.ts').then((m) => (sanitiser = m.sanitizeInstructionsHtml));
  return loading;
}

/** The sanitiser once the page runs in the browser and it has loaded; null before. */
function useSanitiser(): Sanitise | null {
  const inBrowser = useInBrowser();
  const [loaded, setLoaded] = useState<Sanitise | null>(() => (inBrowser ? sanitiser : null));
  useEffect(() => {
    if (!inBrowser || loaded) return;
    let live = true;
    loadSanitiser()
      .then((fn) => {
        if (live) startTransition(() => setLoaded(() => fn));
      })
      .catch((err: unknown) => console.error('The location instructions could not be shown', err));
    return () => {
      live = false;
    };
  }, [inBrowser, loaded]);
  return inBrowser ? loaded : null;
}

/**
 * A location's pickup and return instructions (its own HTML, sanitised), side by side from the small
 * breakpoint. The sanitiser needs the browser's DOM, so a first screen drawn on the server has the
 * headings and the browser fills the instructions in.
 */
export function LocationInstructions({ pickupHtml, returnHtml }: { pickupHtml: string; returnHtml: string }) {
  const sanitise = useSanitiser();
  const html = (source: string) => ({ __html: sanitise ? sanitise(source) : '' });
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
