import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';

/**
 * A request's body, whole, for a route that reads it as it is (a PDF, a form whose bytes are
 * signed): `tooLarge()` is thrown when it declares or streams more than `limit` bytes, so
 * each caller answers in its own protocol's words. raw-body stops reading at the limit.
 */
export const readRawBody = async (
  req: IncomingMessage,
  limit: number,
  tooLarge: () => Error,
): Promise<Buffer> => {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge();
  try {
    return await getRawBody(req, { limit });
  } catch (error) {
    if ((error as { type?: unknown }).type === 'entity.too.large') throw tooLarge();
    throw error;
  }
};
