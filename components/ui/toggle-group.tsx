'use client';
import { Button } from './button';

/**
 * A row of buttons of which one is on (aria-pressed), for switching a view or a period: the
 * reservation page's Calendário/Lista and Dia/Semana, the delivery-health period. Like every
 * <Button>, disabled until the page has hydrated, with the reason for screen readers.
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
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-1">
      {options.map((option) => (
        <Button
          key={option}
          size="sm"
          variant={option === value ? 'primary' : 'secondary'}
          aria-pressed={option === value}
          onClick={() => onChange(option)}
        >
          {optionLabel(option)}
        </Button>
      ))}
    </div>
  );
}
