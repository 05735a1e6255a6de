import { z } from 'zod';
import { FieldRejected } from './field-rejected';

const uuid = z.guid();

/**
 * A path parameter that names a row by its UUID (a webhook configuration, a staff user), lowercase
 * as ids are stored; anything else is a 400 naming the parameter (no pointer: it is not in the body).
 */
export function parseUuidParam(name: string, value: string): string {
  if (!uuid.safeParse(value).success) throw new FieldRejected(name, 'uuid', `The path parameter ${name} is not a UUID.`, '');
  return value.toLowerCase();
}
