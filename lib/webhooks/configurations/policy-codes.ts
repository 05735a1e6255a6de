import type { FieldError } from '@/lib/validation/issues';

/**
 * The field-error codes of the URL and header safety policies. A body refused for one of them is
 * worth an audit entry (it may be an SSRF or header-injection attempt); a malformed body is not.
 */
const POLICY_CODE = /^(url|header)[A-Z]/;

export function isPolicyRefusal(errors: readonly FieldError[] | undefined): boolean {
  return (errors ?? []).some((error) => POLICY_CODE.test(error.code));
}
