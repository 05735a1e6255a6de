'use client';
import { Badge } from '@/components/ui/badge';
import type { Tone } from '@/components/ui/alert';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { useLocale, useT } from '@/lib/i18n/client';
import { DISABLED_REASONS, type DisabledReason } from '@/lib/webhooks/configurations/fields';
import type { DeliveryHealth, HealthState } from '@/lib/webhooks/delivery/health-contract';

const isDisabledReason = (motivo: string | null): motivo is DisabledReason => (DISABLED_REASONS as readonly unknown[]).includes(motivo);

export const STATE_TONE: Record<HealthState, Tone> = {
  saudavel: 'success',
  falhando: 'danger',
  'circuito-aberto': 'warning',
  desativada: 'neutral',
};

/**
 * Where a configuration stands, as a badge and, unless it is healthy, since when (and until when);
 * a switched-off one says why, as its editor's delivery section does; then what holds its due
 * deliveries back, when its rate limit or its receiver's pause does. `attempts` are those of the
 * window shown: a configuration without any is "no attempts", not "delivering".
 */
export function HealthSituation({
  situation,
  attempts,
  compact = false,
}: {
  situation: DeliveryHealth['situacao'];
  attempts: number;
  compact?: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const { estado, desde, ate, motivo, retidaPor } = situation;
  const when = (iso: string | null) => (iso ? brasiliaDateTime(iso, locale) : '—');
  const idle = estado === 'saudavel' && attempts === 0;
  let detail: string | null = null;
  if (estado === 'desativada' && isDisabledReason(motivo) && desde) detail = t(`delivery.disabledReason.${motivo}`, { when: when(desde) });
  else if (estado !== 'saudavel') detail = t(`health.stateSince.${estado}`, { since: when(desde), until: when(ate) });
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <Badge tone={idle ? 'neutral' : STATE_TONE[estado]}>{t(idle ? 'health.state.semTentativas' : `health.state.${estado}`)}</Badge>
      {detail === null || compact ? null : <span className="text-sm text-slate-700">{detail}</span>}
      {retidaPor && !compact ? <span className="w-full text-sm text-slate-700">{t(`health.heldBy.${retidaPor}`)}</span> : null}
    </div>
  );
}

/** A success rate as the console writes it: 99,5 % in pt-BR. */
export function formatRate(rate: number | null, locale: string, none: string): string {
  return rate === null ? none : new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(rate);
}
