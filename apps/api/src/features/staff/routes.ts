import type { FastifyInstance } from 'fastify';
import {
  StaffEditBody,
  StaffIdParams,
  StaffInviteBody,
  StaffInviteResult,
  StaffList,
  StaffMember,
} from '@ampere/domain/contract/ops-staff';
import type { Config } from '../../config.ts';
import { opsRoute } from '../../http/ops-route.ts';
import type { SmsSender } from '../auth/sms-sender.ts';
import { createStaffService } from './service.ts';
import { consoleUrl } from './sign-in.ts';

/** The staff list (decision 081): an owner invites, changes roles and locations, and deactivates. */
export function staffRoutes(
  scope: FastifyInstance,
  deps: { sms: SmsSender; config: Pick<Config, 'publicUrl' | 'smsAllowedCountries'> },
): void {
  const staff = createStaffService({
    db: scope.staffSessions.db,
    sms: deps.sms,
    smsAllowedCountries: deps.config.smsAllowedCountries,
  });
  opsRoute(scope, {
    method: 'GET',
    url: '/staff',
    summary:
      'The staff list, with roles, locations and whether each has a passkey; a manager of some locations sees their staff',
    action: 'staff.read',
    response: StaffList,
    handler: ({ ops }) => staff.list(ops),
  });
  opsRoute(scope, {
    method: 'POST',
    url: '/staff',
    status: 201,
    summary: 'Invites a staff member: adds them and texts them the console’s address',
    action: 'staff.invite',
    body: StaffInviteBody,
    response: StaffInviteResult,
    handler: ({ body, ops }, request) =>
      staff.invite(ops, body, consoleUrl(deps.config.publicUrl, `${request.protocol}://${request.host}`), request.log),
  });
  opsRoute(scope, {
    method: 'PATCH',
    url: '/staff/:staffId',
    summary: 'Changes a staff member’s role or locations',
    action: 'staff.edit',
    params: StaffIdParams,
    body: StaffEditBody,
    response: StaffMember,
    handler: ({ params, body, ops }) => staff.edit(ops, params.staffId, body),
  });
  opsRoute(scope, {
    method: 'POST',
    url: '/staff/:staffId/reset-passkey',
    summary:
      'Removes a staff member’s passkey (a lost device) and ends their sessions: they create a new one at their next sign-in',
    action: 'staff.edit',
    params: StaffIdParams,
    response: StaffMember,
    handler: ({ params, ops }) => staff.resetPasskeys(ops, params.staffId),
  });
  opsRoute(scope, {
    method: 'POST',
    url: '/staff/:staffId/deactivate',
    summary: 'Deactivates a staff member and ends their sessions',
    action: 'staff.deactivate',
    params: StaffIdParams,
    response: StaffMember,
    handler: ({ params, ops }) => staff.deactivate(ops, params.staffId),
  });
}
