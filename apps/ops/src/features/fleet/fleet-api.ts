import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CarPhoto, CarPhotos } from '@ampere/domain/contract/ops-day';
import type {
  CarPage,
  CarSummary,
  CarsPage,
  CarsQuery,
  FleetCatalog,
  Hold,
  ImportResult,
  LocationsList,
} from '@ampere/domain/contract/ops-fleet';
import type { ImageView } from '@ampere/domain/constants';
import { OPS_API } from '@ampere/domain/contract/ops';
import { api, sendRaw } from '../../shared/api.ts';

/**
 * The fleet's calls (decisions 083–085), their query keys from one factory, and what they answer.
 * Writes invalidate `fleetKeys.all`, so the list and every open car page read again.
 */
export type CarsPageData = z.infer<typeof CarsPage>;
export type CarPageData = z.infer<typeof CarPage>;
export type Catalog = z.infer<typeof FleetCatalog>;
export type ImportAnswer = z.infer<typeof ImportResult>;
export type FleetLocation = z.infer<typeof LocationsList>['locations'][number];
export type CarsFilter = Partial<Omit<CarsQuery, 'sort' | 'order' | 'limit' | 'offset'>> &
  Pick<CarsQuery, 'sort' | 'order' | 'limit' | 'offset'>;

export const fleetKeys = {
  all: ['fleet'] as const,
  cars: (filter: CarsFilter) => ['fleet', 'cars', filter] as const,
  car: (carId: number) => ['fleet', 'car', carId] as const,
  photos: (carId: number) => ['fleet', 'car', carId, 'photos'] as const,
  catalog: ['fleet-catalog'] as const,
  locations: ['fleet-locations'] as const,
};

export function carsQuery(filter: CarsFilter) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined && value !== '') params.set(key, String(value));
  return queryOptions({
    queryKey: fleetKeys.cars(filter),
    queryFn: () => api<CarsPageData>(`/cars?${params.toString()}`),
  });
}

export const carQuery = (carId: number) =>
  queryOptions({ queryKey: fleetKeys.car(carId), queryFn: () => api<CarPageData>(`/cars/${carId}`) });

export const carPhotosQuery = (carId: number) =>
  queryOptions({
    queryKey: fleetKeys.photos(carId),
    queryFn: () => api<z.infer<typeof CarPhotos>>(`/cars/${carId}/photos`),
  });

export const catalogQuery = queryOptions({
  queryKey: fleetKeys.catalog,
  queryFn: () => api<Catalog>('/fleet/catalog'),
  staleTime: 10 * 60_000,
});

/** The locations the signed-in staff member works at, with their time zones. */
export const fleetLocationsQuery = queryOptions({
  queryKey: fleetKeys.locations,
  queryFn: () => api<z.infer<typeof LocationsList>>('/locations'),
  staleTime: 5 * 60_000,
});

/** A car's values as the add and edit forms send them. */
export interface CarValues {
  year: number;
  model: string;
  colour: string;
  locationId: number;
  dailyRateCents: number;
  odometer: number;
  selfServe: boolean;
  /** null removes the plate. */
  licensePlate: string | null;
}

export const addCar = (values: CarValues & { vin: string }) =>
  api<CarSummary>('/cars', { method: 'POST', body: values });
export const editCar = (carId: number, values: Partial<CarValues>) =>
  api<CarSummary>(`/cars/${carId}`, { method: 'PATCH', body: values });
export const retireCar = (carId: number) => api<CarSummary>(`/cars/${carId}/retire`, { method: 'POST' });

export interface HoldValues {
  reason: Hold['reason'];
  note: string;
  startsAt: string;
  endsAt: string;
}
export const createHold = (carId: number, values: HoldValues) =>
  api<Hold>(`/cars/${carId}/holds`, { method: 'POST', body: values });
export const changeHold = (holdId: string, values: Partial<HoldValues> | { endNow: true }) =>
  api<Hold>(`/holds/${holdId}`, { method: 'PATCH', body: values });
export const cancelHold = (holdId: string) => api<Hold>(`/holds/${holdId}`, { method: 'DELETE' });

export const uploadPhoto = (carId: number, view: ImageView, file: File, onProgress: (fraction: number) => void) =>
  sendRaw<CarPhoto>(`/cars/${carId}/photos/${view}`, {
    body: file,
    // A file the browser cannot type is sent as bytes; the server reads what it really is.
    contentType: file.type || 'application/octet-stream',
    onProgress,
  });
export const removePhoto = (carId: number, view: ImageView) =>
  api<{ removed: true }>(`/cars/${carId}/photos/${view}`, { method: 'DELETE' });

export const importCsv = (csv: string, dryRun: boolean) =>
  sendRaw<ImportAnswer>(`/fleet/import?dryRun=${String(dryRun)}`, { body: csv, contentType: 'text/csv' });

/** Where the browser downloads the fleet's CSV (the staff cookie goes with it). */
export const EXPORT_URL = `${OPS_API}/fleet/export`;
