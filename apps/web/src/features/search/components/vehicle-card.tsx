import { Badge, Card, Group, Image, Text } from '@mantine/core';
import { Link } from '../../../shared/router/react.tsx';
import type { VehicleSearchItem } from '@ampere/domain/contract/catalog';
import { colorLabel } from '@ampere/domain/filters';
import { formatPrice, formatTotal } from '@ampere/domain/money';
import { periodLabel } from '@ampere/domain/rental';
import { mainPhoto } from '@ampere/domain/photos';
import classes from './vehicle-card.module.css';

export interface VehicleCardProps {
  item: VehicleSearchItem;
  href: string;
  onHover(vin: string | null): void;
  onOpen(): void;
  /** One of the first cards on the screen: its photo is fetched at once and first (it is the page's largest paint). */
  priority?: boolean;
}

/**
 * One car: photo, colour, model, the all-in total for the dates, the daily rate and where it is.
 * The link is named by exactly the words it shows, so a speech-input user can say them (WCAG 2.5.3).
 */
export function VehicleCard({ item, href, onHover, onOpen, priority = false }: VehicleCardProps) {
  const image = mainPhoto(item.images);
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      component={Link}
      to={href}
      className={classes.card}
      onMouseEnter={() => onHover(item.vin)}
      onMouseLeave={() => onHover(null)}
      onFocus={() => onHover(item.vin)}
      onBlur={() => onHover(null)}
      onClick={onOpen}
    >
      <Card.Section>
        {image && (
          <Image
            src={image.image_url}
            alt=""
            className={classes.photo}
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : 'auto'}
          />
        )}
      </Card.Section>
      <Group justify="space-between" mt="xs" wrap="nowrap" align="flex-start">
        <div>
          <Text fw={700}>{item.model.name}</Text>
          <Text size="sm" c="dark.3">
            {item.year} · {colorLabel(item.color)}
          </Text>
        </div>
        {!item.is_self_serve_booking_allowed && (
          <Badge color="gray" variant="light">
            Book with our team
          </Badge>
        )}
      </Group>
      <Group justify="space-between" mt={6} align="flex-end">
        <div>
          <Text fw={700} size="lg">
            {formatTotal(item.price.total)}
          </Text>
          <Text size="xs" c="dark.3">
            total for {periodLabel(item.price.days)}, tax included
          </Text>
        </div>
        <Text size="sm" fw={500}>
          {formatPrice(item.rack_rate)}/day
        </Text>
      </Group>
      <Text size="xs" c="dark.3" mt={4}>
        {item.location.name} · {item.distance_miles} mi
      </Text>
    </Card>
  );
}
