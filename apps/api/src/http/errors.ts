import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';

export type ErrorCode =
  | 'INVALID_INPUT'
  | 'UNPROCESSABLE'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'UNAVAILABLE';

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
    /**
     * retryAfterSeconds, for a 429 or 503: how many seconds the client should wait before trying
     * again (the Retry-After header). body: more the client needs to act on, added to the error
     * body (a refused CSV import's problems, row by row).
     */
    readonly opts: { retryAfterSeconds?: number; body?: Record<string, unknown> } = {},
  ) {
    super(message);
  }
  get statusCode(): number {
    return STATUS[this.code];
  }
}

/** What a 503 for a busy database asks the client to wait, in seconds (the Retry-After header). */
export const BUSY_RETRY_AFTER_SECONDS = 1;
export const BUSY_MESSAGE =
  'We are busy right now and could not finish your request. Nothing was changed; please try again in a moment.';

/** The 503 for a transaction that kept colliding with others (see db/transact.ts); keeps the database error as its cause for the log. */
export function busy(cause?: unknown): AppError {
  const err = new AppError('UNAVAILABLE', BUSY_MESSAGE, undefined, { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
  if (cause !== undefined) (err as Error & { cause?: unknown }).cause = cause;
  return err;
}

/** The 401 for a request whose renter is gone (a session outliving its account): treated as signed out. */
export const signedOut = () => new AppError('UNAUTHORIZED', 'Please sign in to continue.');
export const notFound = (message: string, field?: string) => new AppError('NOT_FOUND', message, field);
export const invalid = (message: string, field?: string) => new AppError('INVALID_INPUT', message, field);
export const unprocessable = (message: string, field?: string) => new AppError('UNPROCESSABLE', message, field);

/** A database error's SQLSTATE, or undefined for anything else. */
function sqlState(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Class 22 (data exception): a value the database could not take — a character it cannot store
 * (22P05, 22021), a number out of a column's range (22003), a date or time out of range (22008).
 * Validation refuses these first; this is the last line of defence, so the client still gets a
 * 400 and the log says which check let the value through.
 */
const DATA_EXCEPTION_MESSAGE = 'A value in the request is out of range or contains characters we cannot store.';

function send(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  field?: string,
  more?: Record<string, unknown>,
) {
  return reply.status(status).send({ ...more, statusCode: status, code, message, ...(field ? { field } : {}) });
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.opts.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.opts.retryAfterSeconds));
      if (err.statusCode >= 500) request.log.warn({ err, cause: (err as { cause?: unknown }).cause }, err.message);
      return send(reply, err.statusCode, err.code, err.message, err.field, err.opts.body);
    }
    const state = sqlState(err);
    if (state?.startsWith('22')) {
      request.log.warn(
        { err, sqlState: state, url: request.url },
        'database refused a value that validation let through',
      );
      return send(reply, 400, 'INVALID_INPUT', DATA_EXCEPTION_MESSAGE);
    }
    if (state === '40P01' || state === '40001') {
      // A deadlock or serialization failure outside transact() (which retries them): nothing was
      // written, so the client may simply try again.
      request.log.warn(
        { err, sqlState: state, url: request.url },
        'transaction aborted by the database outside transact()',
      );
      reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS));
      return send(reply, 503, 'UNAVAILABLE', BUSY_MESSAGE);
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status < 500) {
      // Fastify's own client errors: unparseable JSON, wrong content type, body too large.
      return send(reply, status, 'INVALID_INPUT', err.message);
    }
    request.log.error({ err }, 'unhandled error');
    return send(reply, 500, 'INTERNAL', 'Something went wrong on our side. Please try again.');
  });
}
