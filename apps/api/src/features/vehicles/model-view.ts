import type { VehicleModel } from '@ampere/domain/contract/catalog';
import { imageUrl } from '../media/paths.ts';

export interface ModelFields {
  name: string;
  slug: string;
  type: string;
  seating_capacity: number;
  drivetrain: string;
  mile_range: number;
  zero_to_sixty_mph_seconds: number;
  top_speed_mph: number;
}

/** A model as search results, the car page and the model list show it. */
export const modelView = (m: ModelFields): VehicleModel => ({
  name: m.name,
  type: m.type,
  seating_capacity: m.seating_capacity,
  drivetrain: m.drivetrain,
  mile_range: m.mile_range,
  zero_to_sixty_mph_seconds: m.zero_to_sixty_mph_seconds,
  top_speed_mph: m.top_speed_mph,
  public_image_link: imageUrl(m.slug, 'WHITE', 'MONEYSHOT'),
});
