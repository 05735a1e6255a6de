import { PageHeader } from '@/components/ui/card';
import { ApiClientsAdmin } from '@/components/api-clients/api-clients-admin';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('apiClients.title') };
}

export default async function ApiClientsPage() {
  const t = await getT();
  return (
    <>
      <PageHeader title={t('apiClients.title')} description={t('apiClients.intro')} />
      <ApiClientsAdmin />
    </>
  );
}
