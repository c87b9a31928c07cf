import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface RegionTable {
  id: Generated<number>;
  name: string;
  state: string;
  latitude: number;
  longitude: number;
  timezone: string;
}

export interface SearchOptionTable {
  id: Generated<number>;
  region_id: number;
  query: string;
  type: string;
  state: string;
  latitude: number;
  longitude: number;
  timezone: string;
  min_reservation_buffer_hours: number | null;
  rank: Generated<number>;
}

export interface LocationTable {
  id: Generated<number>;
  region_id: number;
  name: string;
  street: string;
  city: string;
  state: string;
  zip_code: string;
  latitude: number;
  longitude: number;
  timezone: string;
  is_airport: boolean;
  pickup_instructions_html: string;
  return_instructions_html: string;
  tax_rate_ppm: number;
}

export interface VehicleModelTable {
  id: Generated<number>;
  name: string;
  slug: string;
  type: string;
  seating_capacity: number;
  drivetrain: string;
  mile_range: number;
  zero_to_sixty_mph_seconds: number;
  top_speed_mph: number;
  battery_kwh: number;
}

export interface VehicleTable {
  id: Generated<number>;
  vin: string;
  platform_id: string;
  model_id: number;
  location_id: number;
  year: number;
  color: string;
  odometer: number;
  rack_rate: number;
  is_self_serve_booking_allowed: boolean;
  battery_type: string;
}

export interface ModelImageTable {
  model_id: number;
  color: string;
  view: string;
  image_url: string;
  position: number;
}

export interface AddonTable {
  id: string;
  type: string;
  description: string;
  amount: number;
  charge_frequency: string;
  category: string;
  model_id: number | null;
  active: Generated<boolean>;
}

export interface ReservationTable {
  id: Generated<string>;
  platform_id: string;
  vehicle_id: number;
  user_id: string | null;
  status: string;
  pickup_at: Timestamp;
  return_at: Timestamp;
  timezone: string;
  pickup_location_id: number;
  dropoff_location_id: number;
  created_at: Generated<Timestamp>;
}

export interface Database {
  regions: RegionTable;
  search_options: SearchOptionTable;
  locations: LocationTable;
  vehicle_models: VehicleModelTable;
  vehicles: VehicleTable;
  model_images: ModelImageTable;
  addons: AddonTable;
  reservations: ReservationTable;
}
