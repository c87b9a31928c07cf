import { Alert, Stack, Title } from '@mantine/core';
import { useTitle } from '../shared/use-title.ts';

/** A page the console will have, not built yet: it says so rather than looking broken. */
export function PlaceholderPage({ title, what }: { title: string; what: string }) {
  useTitle(title);
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      <Alert color="gray" title="Not built yet">
        This page will show {what}. It is coming in a later release of the console.
      </Alert>
    </Stack>
  );
}
