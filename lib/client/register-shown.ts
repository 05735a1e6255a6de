import type { FieldPath, FieldValues, UseFormGetValues, UseFormRegister } from 'react-hook-form';

type FormParts<T extends FieldValues> = { register: UseFormRegister<T>; getValues: UseFormGetValues<T> };

/**
 * register() plus the form's current value as the control's default. register alone leaves the
 * server's HTML empty (react-hook-form fills an uncontrolled control through its ref, once
 * hydrated), so the page's first paint would show a stored configuration's fields blank, and
 * then move as they fill in.
 */
export function registerShown<T extends FieldValues>(form: FormParts<T>, name: FieldPath<T>) {
  return { ...form.register(name), defaultValue: String(form.getValues(name) ?? '') };
}

/** The same for a checkbox or switch: checked in the server's HTML as the form starts. */
export function registerChecked<T extends FieldValues>(form: FormParts<T>, name: FieldPath<T>) {
  return { ...form.register(name), defaultChecked: Boolean(form.getValues(name)) };
}
