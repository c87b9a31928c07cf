import { Alert, Anchor, Center, Stack, Title } from '@mantine/core';
import { useRouteError } from 'react-router';

/** A page that failed to draw: said plainly, with a way back, rather than a blank screen. */
export function ErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <Center mih="60vh" p="md" component="main">
      <Stack maw={480}>
        <Title order={1}>Something went wrong</Title>
        <Alert color="red" role="alert">
          This page could not be shown. Reload it, or go back to Today; if it happens again, tell your owner what you
          were doing.
        </Alert>
        <Anchor href="/ops/">Go to Today</Anchor>
      </Stack>
    </Center>
  );
}
