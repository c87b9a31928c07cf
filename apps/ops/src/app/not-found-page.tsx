import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTitle } from '../shared/use-title.ts';

export function NotFoundPage() {
  useTitle('Page not found');
  return (
    <Stack>
      <Title order={1}>Page not found</Title>
      <Text>The console has no page at this address.</Text>
      <Anchor component={Link} to="/">
        Go to Today
      </Anchor>
    </Stack>
  );
}
