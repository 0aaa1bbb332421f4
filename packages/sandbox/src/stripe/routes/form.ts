import qs from 'qs';
import type { RawParams } from '../domain/params.js';
import { StripeSandboxError } from '../objects/errors.js';

/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracket nesting
 * (`items[0][price]=x&expand[0]=default_source`), both in bodies and in GET query strings.
 */
const QS_OPTIONS = { arrayLimit: 1000, depth: 10, parameterLimit: 10_000 } as const;

export function parseForm(text: string): RawParams {
  return qs.parse(text, QS_OPTIONS) as RawParams;
}

export async function readParams(request: Request): Promise<RawParams> {
  const url = new URL(request.url);
  const query = url.search.length > 1 ? parseForm(url.search.slice(1)) : {};
  if (request.method === 'GET' || request.method === 'HEAD') return query;
  const text = await request.text();
  if (text === '') return query;
  const type = request.headers.get('content-type') ?? '';
  let body: RawParams;
  try {
    body =
      type.includes('application/json') || text.trimStart().startsWith('{')
        ? (JSON.parse(text) as RawParams)
        : parseForm(text);
  } catch {
    throw StripeSandboxError.invalid(
      'Invalid request body: send application/x-www-form-urlencoded parameters.',
    );
  }
  return { ...query, ...body };
}
