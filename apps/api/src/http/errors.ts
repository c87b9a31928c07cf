import type { FastifyError, FastifyInstance } from 'fastify';

export type ErrorCode = 'INVALID_INPUT' | 'UNPROCESSABLE' | 'NOT_FOUND' | 'CONFLICT' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'RATE_LIMITED' | 'INTERNAL' | 'UNAVAILABLE';

const STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** An outside provider (e.g. the SMS service) is failing; trying again later may work. */
  UNAVAILABLE: 503,
};

/** The one error type services throw; the handler turns it into { statusCode, code, message, field }. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
  get statusCode(): number {
    return STATUS[this.code];
  }
}

export const notFound = (message: string, field?: string) => new AppError('NOT_FOUND', message, field);
export const invalid = (message: string, field?: string) => new AppError('INVALID_INPUT', message, field);
export const unprocessable = (message: string, field?: string) => new AppError('UNPROCESSABLE', message, field);

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.statusCode).send({ statusCode: err.statusCode, code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}) });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status < 500) {
      // Fastify's own client errors: unparseable JSON, wrong content type, body too large.
      return reply.status(status).send({ statusCode: status, code: 'INVALID_INPUT', message: err.message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ statusCode: 500, code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' });
  });
}
