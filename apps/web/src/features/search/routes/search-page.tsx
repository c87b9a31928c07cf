import { Container, Title } from '@mantine/core';

export function SearchPage() {
  return (
    <Container py="xl">
      <Title order={1}>Search</Title>
    </Container>
  );
}
