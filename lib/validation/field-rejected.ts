/**
 * A field refused by code that knows no language (a service, an adapter, a header check): it names
 * the field and a message code, and the API wrapper words it in the caller's language as a 400.
 */
export class FieldRejected extends Error {
  constructor(
    readonly field: string,
    readonly code: string,
    readonly detail?: string,
    /** JSON Pointer into the body, in the form zod's errors have (`#/field`); empty for a path or query parameter or a header. */
    readonly pointer = `#/${field}`,
  ) {
    super(`${field} rejected (${code})`);
    this.name = 'FieldRejected';
  }
}
