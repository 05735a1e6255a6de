'use client';
import { Badge } from '@/components/ui/badge';
import type { Tone } from '@/components/ui/alert';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { useLocale, useT } from '@/lib/i18n/client';
import type { DeliveryHealth, HealthState } from '@/lib/webhooks/health-contract';

export const STATE_TONE: Record<HealthState, Tone> = {
  saudavel: 'success',
  falhando: 'danger',
  'circuito-aberto': 'warning',
  desativada: 'neutral',
};

/**
 * Where a configuration stands, as a badge and, unless it is healthy, since when (and until when);
 * then what holds its due deliveries back, when its rate limit or its receiver's pause does.
 */
export function HealthSituation({ situation, compact = false }: { situation: DeliveryHealth['situacao']; compact?: boolean }) {
  const t = useT();
  const locale = useLocale();
  const { estado, desde, ate, retidaPor } = situation;
  const when = (iso: string | null) => (iso ? brasiliaDateTime(iso, locale) : '—');
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <Badge tone={STATE_TONE[estado]}>{t(`health.state.${estado}`)}</Badge>
      {estado === 'saudavel' || compact ? null : (
        <span className="text-sm text-slate-700">{t(`health.stateSince.${estado}`, { since: when(desde), until: when(ate) })}</span>
      )}
      {retidaPor && !compact ? <span className="w-full text-sm text-slate-700">{t(`health.heldBy.${retidaPor}`)}</span> : null}
    </div>
  );
}

/** A success rate as the console writes it: 99,5 % in pt-BR. */
export function formatRate(rate: number | null, locale: string, none: string): string {
  return rate === null ? none : new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(rate);
}
