/**
 * Masks for values that must not be readable in the audit trail or logs: patient identifiers keep
 * their last characters (enough for staff to tell records apart), secrets keep nothing.
 */
export function maskIdentifier(value: string | number | null | undefined, visible = 3): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  if (text.length <= visible) return '•'.repeat(text.length);
  return '•'.repeat(Math.min(text.length - visible, 8)) + text.slice(-visible);
}

export function maskSecret(value: string): string {
  return value.length === 0 ? '' : '••••••';
}
