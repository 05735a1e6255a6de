'use client';
import { Button } from './button';
import { useHydrated } from './use-hydrated';

/**
 * A row of buttons of which one is on (aria-pressed), for switching a view or a period: the
 * reservation page's Calendário/Lista and Dia/Semana, the delivery-health period. Disabled until
 * the page has hydrated: a click before then would do nothing and be lost.
 */
export function ToggleGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  optionLabel,
}: {
  label: string;
  options: readonly T[];
  value: T;
  onChange: (option: T) => void;
  optionLabel: (option: T) => string;
}) {
  const hydrated = useHydrated();
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-1">
      {options.map((option) => (
        <Button
          key={option}
          size="sm"
          variant={option === value ? 'primary' : 'secondary'}
          aria-pressed={option === value}
          disabled={!hydrated}
          onClick={() => onChange(option)}
        >
          {optionLabel(option)}
        </Button>
      ))}
    </div>
  );
}
