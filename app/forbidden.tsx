import { StatusPage } from '@/components/console/status-page';

export default function Forbidden() {
  return <StatusPage title="forbidden.title" body="forbidden.body" />;
}
