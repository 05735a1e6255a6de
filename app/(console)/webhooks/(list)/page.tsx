import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { WebhookList } from '@/components/webhooks/webhook-list';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('webhooks.title') };
}

export default async function WebhooksPage() {
  const t = await getT();
  return (
    <>
      <PageHeader
        title={t('webhooks.title')}
        description={t('webhooks.intro')}
        actions={
          <Link href="/webhooks/new" className={buttonClasses('primary')}>
            {t('webhooks.new')}
          </Link>
        }
      />
      <WebhookList />
    </>
  );
}
