import { StatusPage } from '@/components/console/status-page';

export default function NotFound() {
  return <StatusPage title="notFound.title" body="notFound.body" />;
}
