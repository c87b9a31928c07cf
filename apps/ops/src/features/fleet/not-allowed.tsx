import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../shared/paths.ts';

/** A fleet page opened by its address by someone whose role may not use it: says so, as the API would. */
export function NotAllowed({ title, what }: { title: string; what: string }) {
  return (
    <Stack>
      <Anchor component={Link} to={paths.fleet} size="sm">
        ← Fleet
      </Anchor>
      <Title order={1}>{title}</Title>
      <Alert color="gray" role="alert">
        Your role does not allow {what}. Ask a manager or the owner to do it, or to change your role.
      </Alert>
    </Stack>
  );
}
