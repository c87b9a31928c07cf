import { Container, Text, Title } from '@mantine/core';

export function Placeholder({ title }: { title: string }) {
  return (
    <Container size="sm" py="xl">
      <Title order={1}>{title}</Title>
      <Text mt="md">This page arrives with the next release.</Text>
    </Container>
  );
}
