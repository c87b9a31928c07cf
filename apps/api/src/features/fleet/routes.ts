import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CarEdit,
  CarPage,
  CarParams,
  CarSummary,
  CarsPage,
  CarsQuery,
  FleetCatalog,
  Hold,
  HoldEdit,
  HoldParams,
  IMPORT_MAX_BYTES,
  ImportQuery,
  ImportResult,
  LocationEdit,
  LocationParams,
  LocationSummary,
  LocationsList,
  NewCar,
  NewHold,
} from '@ampere/domain/contract/ops-fleet';
import { opsRoute } from '../../http/ops-route.ts';
import { type FleetDeps, addCar, carPage, editCar, fleetCatalog, listCars, retireCar } from './cars.ts';
import { exportFleet, importFleet } from './csv.ts';
import { cancelHold, changeHold, createHold } from './holds.ts';
import { editLocation, listLocations } from './locations.ts';

/** The console's fleet (issue 29 §3, decisions 083 and 084): cars, holds, the CSV, locations. */
export function fleetRoutes(scope: FastifyInstance, deps: FleetDeps): void {
  const { db } = deps;
  opsRoute(scope, {
    method: 'GET',
    url: '/cars',
    summary: 'List the cars, filtered, sorted and a page at a time',
    action: 'fleet.read',
    query: CarsQuery,
    response: CarsPage,
    handler: ({ query, ops }) => listCars(db, ops, query),
  });
  opsRoute(scope, {
    method: 'GET',
    url: '/fleet/catalog',
    summary: 'The models, colours and hold reasons the fleet’s forms offer, and the CSV’s columns',
    action: 'fleet.read',
    response: FleetCatalog,
    handler: () => fleetCatalog(db),
  });
  opsRoute(scope, {
    method: 'GET',
    url: '/cars/:carId',
    summary: 'A car with its timeline of bookings and holds, its rides and its photos',
    action: 'fleet.read',
    params: CarParams,
    response: CarPage,
    handler: ({ params, ops }) => carPage(db, ops, params.carId),
  });
  opsRoute(scope, {
    method: 'POST',
    url: '/cars',
    summary: 'Add a car',
    action: 'cars.create',
    body: NewCar,
    response: CarSummary,
    status: 201,
    handler: ({ body, ops }) => addCar(deps, ops, body),
  });
  opsRoute(scope, {
    method: 'PATCH',
    url: '/cars/:carId',
    summary: 'Edit a car',
    action: 'cars.edit',
    params: CarParams,
    body: CarEdit,
    response: CarSummary,
    handler: ({ params, body, ops }) => editCar(deps, ops, params.carId, body),
  });
  opsRoute(scope, {
    method: 'POST',
    url: '/cars/:carId/retire',
    summary: 'Retire a car: it is never offered again',
    action: 'cars.retire',
    params: CarParams,
    response: CarSummary,
    handler: ({ params, ops }) => retireCar(deps, ops, params.carId),
  });
  opsRoute(scope, {
    method: 'POST',
    url: '/cars/:carId/holds',
    summary: 'Put a car on hold for a period',
    action: 'holds.create',
    params: CarParams,
    body: NewHold,
    response: Hold,
    status: 201,
    handler: ({ params, body, ops }) => createHold(deps, ops, params.carId, body),
  });
  opsRoute(scope, {
    method: 'PATCH',
    url: '/holds/:holdId',
    summary: 'Change a hold, or end it early',
    action: 'holds.edit',
    params: HoldParams,
    body: HoldEdit,
    response: Hold,
    handler: ({ params, body, ops }) => changeHold(deps, ops, params.holdId, body),
  });
  opsRoute(scope, {
    method: 'DELETE',
    url: '/holds/:holdId',
    summary: 'Cancel a hold',
    action: 'holds.edit',
    params: HoldParams,
    response: Hold,
    handler: ({ params, ops }) => cancelHold(deps, ops, params.holdId),
  });
  opsRoute(scope, {
    method: 'GET',
    url: '/fleet/export',
    summary: 'The fleet as CSV, in the columns the import takes',
    action: 'fleet.export',
    // The fleet leaving the system is recorded like a write.
    auditRead: true,
    response: z.string(),
    handler: async ({ ops }, _request, reply) => {
      const csv = await exportFleet(db, ops);
      await ops.audit(db, { target: { type: 'fleet', id: 'export' } });
      reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="fleet.csv"');
      return csv;
    },
  });
  opsRoute(scope, {
    method: 'GET',
    url: '/locations',
    summary: 'The locations the staff member works at',
    action: 'fleet.read',
    response: LocationsList,
    handler: ({ ops }) => listLocations(db, ops),
  });
  opsRoute(scope, {
    method: 'PATCH',
    url: '/locations/:locationId',
    summary: 'Edit a location: address, time zone, pickup buffer, instructions',
    action: 'locations.edit',
    params: LocationParams,
    body: LocationEdit,
    response: LocationSummary,
    handler: ({ params, body, ops }) => editLocation(deps, ops, params.locationId, body),
  });
  // The import takes a CSV body (text/csv) larger than the app's JSON limit, in a scope of its own.
  scope.register(async (csvScope) => {
    csvScope.addContentTypeParser(
      ['text/csv', 'text/plain', 'application/csv'],
      { parseAs: 'string', bodyLimit: IMPORT_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    opsRoute(csvScope, {
      method: 'POST',
      url: '/fleet/import',
      summary: 'Import cars from a CSV file: a dry run lists each row’s problems; a real import is all or nothing',
      action: 'fleet.import',
      query: ImportQuery,
      body: z.string({ error: 'Send the CSV file as the body, with Content-Type text/csv.' }),
      response: ImportResult,
      bodyLimit: IMPORT_MAX_BYTES,
      handler: ({ query, body, ops }) => importFleet(deps, ops, body, query.dryRun === 'true'),
    });
  });
}
