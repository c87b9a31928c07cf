import { Container, Title } from '@mantine/core';
import { useParams } from 'react-router';

export function VehiclePage() {
  const { vin } = useParams();
  return (
    <Container py="xl">
      <Title order={1}>{vin}</Title>
    </Container>
  );
}
