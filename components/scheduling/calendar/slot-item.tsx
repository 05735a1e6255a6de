'use client';
import { NOT_READY_ID } from '@/components/ui/not-ready';
import { useReady } from '@/components/ui/use-ready';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { useLocale, useT } from '@/lib/i18n/client';
import { clock, type PlacedSlot } from '@/lib/scheduling/calendar';
import { PX_PER_MINUTE, TWO_LINES_PX } from './geometry';
import { STATE_CLASSES, StateIcon } from './slot-state';

/** One slot on the grid: a free one is a button that picks it; a held or taken one says so in words. */
/** A slot's box on its column, `from` being the minute the grid starts at: written into the grid's stylesheet (time-grid.tsx). */
export function slotBox(slot: PlacedSlot, from: number): { top: number; height: number } {
  return { top: (slot.start - from) * PX_PER_MINUTE + 1, height: Math.max(slot.NR_MIN_DURACAO * PX_PER_MINUTE - 2, 14) };
}

export function SlotItem({
  slot,
  date,
  height,
  active,
  onPick,
  waiting = 0,
}: {
  slot: PlacedSlot;
  date: string;
  /** Its box's height (slotBox): the grid's stylesheet places it, this decides its lines. */
  height: number;
  active: boolean;
  onPick: (slot: PlacedSlot) => void;
  /** Waitlist entries this free slot suits: marked, and said after its name. */
  waiting?: number;
}) {
  const t = useT();
  const locale = useLocale();
  // Like <Button>: no click before hydration, or before the form it fills has its code, which would pick nothing.
  const hydrated = useReady();
  const time = clock(slot.start);
  const facts = { time, date, agenda: slot.CD_AGENDA, minutes: slot.NR_MIN_DURACAO, slot: slot.NR_SEQ_AGENDA };
  // Two lines (time, then duration or state) when the slot is tall enough for them; a shorter one
  // puts both on one line rather than clipping the second (agenda 103's 20 minutes once did).
  const lines = height >= TWO_LINES_PX ? 'flex-col' : 'flex-row gap-1 whitespace-nowrap';
  // Below 4.5rem (seven days on a phone) a slot shows its time, or its state's icon, alone.
  const box = `absolute inset-x-px flex ${lines} items-center overflow-hidden rounded py-px text-center text-[0.6875rem] leading-[0.875rem] @[4.5rem]:inset-x-1 @[4.5rem]:items-start @[4.5rem]:px-1.5 @[4.5rem]:text-left ${STATE_CLASSES[slot.situacao]}`;
  if (slot.situacao === 'livre') {
    const waitingId = `slot-${slot.NR_SEQ_AGENDA}-waiting`;
    const described = [hydrated ? undefined : NOT_READY_ID, waiting > 0 ? waitingId : undefined].filter(Boolean).join(' ');
    return (
      <li>
        <button
          type="button"
          data-slot={slot.NR_SEQ_AGENDA}
          data-waiting={waiting > 0 ? waiting : undefined}
          tabIndex={active ? 0 : -1}
          aria-label={t('calendar.freeLabel', facts)}
          disabled={!hydrated}
          aria-describedby={described || undefined}
          onClick={() => onPick(slot)}
          className={`${box} hover:bg-indigo-50 focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-700`}
          data-box={slot.NR_SEQ_AGENDA}
        >
          <span className="font-semibold tabular-nums">{time}</span>
          <span className="hidden @[4.5rem]:block">{t('slots.minutes', { minutes: slot.NR_MIN_DURACAO })}</span>
          {waiting > 0 ? (
            <span
              aria-hidden
              className="absolute top-0.5 right-0.5 rounded-full bg-amber-700 px-1 text-[0.625rem] leading-3 font-semibold text-white"
            >
              {waiting}
            </span>
          ) : null}
        </button>
        {waiting > 0 ? (
          <span id={waitingId} className="sr-only">
            {t('calendar.waiting', { count: waiting })}
          </span>
        ) : null}
      </li>
    );
  }
  // The slot's own time and date first, then its state; a hold's expiry as a full date and time, so
  // "until 11:09" next to the slot's date never reads as a hold lasting until that date.
  const label =
    slot.situacao === 'reservado' && slot.expiraEm
      ? t('calendar.heldLabel', { ...facts, expiry: brasiliaDateTime(slot.expiraEm, locale) })
      : t('calendar.takenLabel', { ...facts, state: t(`calendar.state.${slot.situacao}`) });
  return (
    <li data-slot={slot.NR_SEQ_AGENDA} data-state={slot.situacao} className={box} data-box={slot.NR_SEQ_AGENDA}>
      <span aria-hidden className="flex items-center gap-1 font-semibold tabular-nums">
        <StateIcon state={slot.situacao} />
        <span className="hidden @[4.5rem]:inline">{time}</span>
      </span>
      <span aria-hidden className="hidden @[4.5rem]:block">
        {t(`calendar.state.${slot.situacao}`)}
      </span>
      <span className="sr-only">{label}</span>
    </li>
  );
}
