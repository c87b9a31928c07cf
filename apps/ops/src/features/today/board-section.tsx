import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { Children, type ReactNode } from 'react';

/** A section of the board: its heading with a count, its cards as a list, or a plain word when empty. */
export function BoardSection({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  children: ReactNode;
}) {
  const count = Children.count(children);
  return (
    <section aria-labelledby={`${id}-heading`} id={id} style={{ scrollMarginTop: 72 }}>
      <Group gap="xs" mb="xs">
        <Title order={2} size="h3" id={`${id}-heading`}>
          {title}
        </Title>
        <Badge variant="default" aria-hidden="true">
          {count}
        </Badge>
      </Group>
      {count === 0 ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={`${title}: ${count}`}>
          {children}
        </Stack>
      )}
    </section>
  );
}
