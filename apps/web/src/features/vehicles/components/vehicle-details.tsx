import { addressLine } from '@ampere/domain/format';
import { Anchor, Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { Vehicle } from '@ampere/domain/contract/catalog';
import { colorLabel } from '@ampere/domain/filters';
import { odometerLabel, vehicleAgeLabel } from '@ampere/domain/vehicle';
import { useClientConfig } from '../../../shared/api/config.ts';
import { LazyMap } from '../../../shared/map/lazy-map.tsx';
import { LocationInstructions } from '../../../shared/ui/location-instructions.tsx';
import '../../../shared/ui/mantine-extra-styles.ts';
import classes from './vehicle.module.css';

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="sm" className={classes.stat}>
      <Text size="xs" c="dark.3">
        {label}
      </Text>
      <Text fw={700} className={classes.statValue}>
        {value}
      </Text>
    </Paper>
  );
}

/** 0-60, range, drivetrain, features, odometer, age, and the pickup place with map and instructions. */
export function VehicleDetails({ vehicle }: { vehicle: Vehicle }) {
  const { mapStyleUrl } = useClientConfig();
  const m = vehicle.model;
  const loc = vehicle.location;
  const directions = `https://www.google.com/maps/dir/?api=1&destination=${loc.latitude},${loc.longitude}`;
  return (
    <Stack gap="lg">
      {/* Each figure on one line: the boxes share the row by their content and wrap as boxes, never mid-figure. */}
      <div className={classes.stats}>
        <Stat label="0-60 mph" value={`${m.zero_to_sixty_mph_seconds}s`} />
        <Stat label="Range" value={`${m.mile_range} mi`} />
        <Stat label="Drivetrain" value={m.drivetrain} />
      </div>
      <section aria-labelledby="features-title">
        <Title order={2} size="h4" id="features-title" mb="xs">
          Features
        </Title>
        <List spacing={4} size="sm">
          <List.Item>Contactless Pickup with a digital key</List.Item>
          <List.Item>{m.seating_capacity} seats</List.Item>
          <List.Item>Top speed {m.top_speed_mph} mph</List.Item>
          <List.Item>{vehicle.battery_type} battery</List.Item>
          <List.Item>200 miles a day included</List.Item>
          <List.Item>{colorLabel(vehicle.color)} exterior</List.Item>
        </List>
        <Group gap="lg" mt="sm">
          <Text size="sm">
            <strong>Odometer:</strong> {odometerLabel(vehicle.odometer)}
          </Text>
          <Text size="sm">
            <strong>Age:</strong> {vehicleAgeLabel(vehicle.year, new Date())}
          </Text>
          <Text size="sm">
            <strong>VIN:</strong> {vehicle.vin}
          </Text>
        </Group>
      </section>
      <section aria-labelledby="pickup-title">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="pickup-title">
            Pickup at {loc.name}
          </Title>
          {loc.is_airport && <Badge variant="light">Airport</Badge>}
        </Group>
        <Text size="sm">{addressLine(loc)}</Text>
        <Anchor href={directions} target="_blank" rel="noopener noreferrer" size="sm">
          Directions
        </Anchor>
        <div style={{ marginTop: 12, borderRadius: 12, overflow: 'hidden' }}>
          <LazyMap
            center={{ latitude: loc.latitude, longitude: loc.longitude }}
            zoom={13}
            markers={[
              {
                id: vehicle.vin,
                latitude: loc.latitude,
                longitude: loc.longitude,
                title: loc.name,
                description: `${loc.street}, ${loc.city}`,
                place: { id: String(loc.id), name: loc.name, street: loc.street },
              },
            ]}
            styleUrl={mapStyleUrl}
            ariaLabel={`Map of ${loc.name}`}
            height={260}
          />
        </div>
        <div style={{ marginTop: 16 }}>
          <LocationInstructions pickupHtml={loc.pickup_instructions_html} returnHtml={loc.return_instructions_html} />
        </div>
      </section>
    </Stack>
  );
}
