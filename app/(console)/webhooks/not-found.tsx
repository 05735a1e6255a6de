import { StatusMessage } from '@/components/console/status-page';

/** A 404 under /webhooks (a malformed id) inside the console: its layout already holds <main>. */
export default function WebhookNotFound() {
  return <StatusMessage title="notFound.title" body="notFound.body" />;
}
