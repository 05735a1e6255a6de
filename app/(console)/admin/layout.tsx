import type { ReactNode } from 'react';
import { requireCapability } from '@/lib/auth/console-session';

/** Administration is for staff admins; the check sits outside the pages' loading boundary (a real 403). */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  await requireCapability('administration', '/admin/clientes');
  return children;
}
