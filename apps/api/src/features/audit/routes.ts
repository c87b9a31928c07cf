import type { FastifyInstance } from 'fastify';
import { AuditPage, AuditQuery } from '@ampere/domain/contract/ops';
import { opsRoute } from '../../http/ops-route.ts';
import { readAuditLog } from './service.ts';

/** The audit log page's call: filters, newest first, a page at a time; a manager of one city reads its log. */
export function auditRoutes(scope: FastifyInstance): void {
  opsRoute(scope, {
    method: 'GET',
    url: '/audit',
    summary: 'Read the audit log',
    action: 'audit.read',
    query: AuditQuery,
    response: AuditPage,
    handler: ({ query, ops }) =>
      readAuditLog(scope.staffSessions.db, {
        ...query,
        scope:
          ops.staff.locationIds === 'all' ? undefined : { locationIds: ops.staff.locationIds, staffId: ops.staff.id },
      }),
  });
}
