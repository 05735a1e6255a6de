import type { ReactNode } from 'react';
import { ConsoleHeader } from '@/components/console/console-header';
import { SurfaceFrame } from '@/components/console/surface-frame';
import { requireStaff } from '@/lib/auth/console-session';
import { hasCapability } from '@/lib/auth/principal';
import { API_BASES } from '@/lib/client/api';

export const dynamic = 'force-dynamic';

/** Every console page: a signed-in staff user, the header with the areas their roles open; the browser calls /api. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff();
  return (
    <SurfaceFrame
      apiBase={API_BASES.console}
      width="max-w-7xl"
      header={
        <ConsoleHeader
          user={{ name: staff.name, email: staff.email, roles: staff.roles }}
          areas={{
            webhooks: hasCapability(staff, 'webhooks'),
            scheduling: hasCapability(staff, 'scheduling'),
            administration: hasCapability(staff, 'administration'),
          }}
        />
      }
    >
      {children}
    </SurfaceFrame>
  );
}
