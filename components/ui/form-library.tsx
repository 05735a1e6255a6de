'use client';
import { createContext, Fragment, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import type * as ReactHookForm from 'react-hook-form';
import type { FieldValues, Path, UseFormProps, UseFormRegister, UseFormReturn } from 'react-hook-form';
import { useT } from '@/lib/i18n/client';
import { Alert } from './alert';
import { ReadyContext } from './use-ready';

/**
 * react-hook-form for a part of a page, arriving after hydration (issue 32: it is about 14 KiB of
 * gzip, the largest module of a console form page's first load). Inside <WithFormLibrary> (or a
 * <FormLibraryScope>), forms call useForm, FormProvider, useFormContext, useWatch and
 * useFieldArray from here instead of from react-hook-form:
 * - on the server and until the library has loaded, a static stand-in renders the same markup
 *   from the form's default values (stored header rows, chosen events), with every control of the
 *   part disabled and described as not ready yet (ReadyContext);
 * - once it has loaded, the part mounts again with react-hook-form itself, and works. That render
 *   is a transition, so it does not block the page; keep the part to the form itself, as what
 *   mounts again is laid out again.
 * Nothing can be typed in between (the controls are disabled), so the remount loses nothing.
 */
type Library = Pick<typeof ReactHookForm, 'useForm' | 'FormProvider' | 'useFormContext' | 'useWatch' | 'useFieldArray'>;

const LibraryContext = createContext<Library | null>(null);

/** Where a page's react-hook-form stands: the stand-in until it has loaded (`ready`), or `failed`. */
export type FormLibraryState = { library: Library; ready: boolean; failed: boolean };

/**
 * Loads react-hook-form once the page has hydrated. The state goes to a <FormLibraryScope>; a page
 * whose other parts act on the form (the reservation page's calendar fills it) keeps them outside
 * the scope, so they do not mount again with it, and gives them `ready` through ReadyContext.
 */
export function useFormLibrary(): FormLibraryState {
  const [state, setState] = useState<{ library?: Library; failed?: boolean }>({});
  useEffect(() => {
    let current = true;
    // One retry: a chunk request cut by a flaky network is usually served on the second try.
    import('react-hook-form')
      .catch(() => import('react-hook-form'))
      .then(
        // In a transition: React renders the live form in slices of a few milliseconds, yielding to
        // the page between them, instead of in one task as long as the whole form's render.
        (library) => current && startTransition(() => setState({ library })),
        () => current && setState({ failed: true }),
      );
    return () => {
      current = false;
    };
  }, []);
  return { library: state.library ?? STATIC_LIBRARY, ready: state.library !== undefined, failed: state.failed === true };
}

/** The part of a page that uses the form's hooks: mounted again, live, once the library is there. */
export function FormLibraryScope({ state, children }: { state: FormLibraryState; children: ReactNode }) {
  const t = useT();
  return (
    <LibraryContext value={state.library}>
      {state.failed ? (
        <Alert tone="danger" role="alert">
          {t('form.codeFailed')}
        </Alert>
      ) : null}
      <ReadyContext value={state.ready}>
        <Fragment key={state.ready ? 'live' : 'static'}>{children}</Fragment>
      </ReadyContext>
    </LibraryContext>
  );
}

/** A form whose whole part lives in one scope (useFormLibrary and FormLibraryScope together). */
export function WithFormLibrary({ children }: { children: ReactNode }) {
  return <FormLibraryScope state={useFormLibrary()}>{children}</FormLibraryScope>;
}

function useLibrary(): Library {
  const library = useContext(LibraryContext);
  if (!library) throw new Error('a form hook outside <WithFormLibrary>');
  return library;
}

// Each hook stays the same for the life of a mounted part: <WithFormLibrary> remounts the part when
// the library changes, so the hooks' order never changes within one mount.
export const useForm = (<V extends FieldValues>(props?: UseFormProps<V>) => useLibrary().useForm<V>(props)) as Library['useForm'];
export const useFormContext = (<V extends FieldValues>() => useLibrary().useFormContext<V>()) as Library['useFormContext'];
// useWatch's overloads cannot be forwarded one by one; every call passes `{ name }`.
export const useWatch = ((props: { name: string }) =>
  (useLibrary().useWatch as (props: { name: string }) => unknown)(props)) as Library['useWatch'];
export const useFieldArray = ((props: Parameters<Library['useFieldArray']>[0]) =>
  useLibrary().useFieldArray(props)) as Library['useFieldArray'];

export function FormProvider<V extends FieldValues>(props: UseFormReturn<V> & { children: ReactNode }) {
  const { FormProvider: Provider } = useLibrary();
  return <Provider {...props} />;
}

/** The static form a stand-in part renders: its values, no errors, and nothing that acts. */
const StaticFormContext = createContext<UseFormReturn<FieldValues> | null>(null);

function staticForm<V extends FieldValues>(values: V): UseFormReturn<V> {
  const ignore = () => undefined;
  const form = {
    register: staticRegister(values),
    control: {},
    formState: { errors: {}, isDirty: false, isSubmitting: false, isSubmitted: false, submitCount: 0, dirtyFields: {}, touchedFields: {} },
    handleSubmit: () => (event?: { preventDefault?: () => void }) => {
      event?.preventDefault?.();
      return Promise.resolve();
    },
    getValues: (name?: string) => (name === undefined ? values : valueAt(values, name)),
    getFieldState: () => ({ invalid: false, isDirty: false, isTouched: false, isValidating: false }),
    setValue: ignore,
    setError: ignore,
    clearErrors: ignore,
    reset: ignore,
    resetField: ignore,
    setFocus: ignore,
    unregister: ignore,
    trigger: () => Promise.resolve(false),
    watch: (name?: string) => (name === undefined ? values : valueAt(values, name)),
    subscribe: () => ignore,
  };
  // Only rendered, never acted on (the part's controls are disabled): the subset above is what
  // rendering reads.
  return form as unknown as UseFormReturn<V>;
}

/** Each control's name and default value, and no handlers (the part's controls are disabled). */
function staticRegister<V extends FieldValues>(values: V): UseFormRegister<V> {
  return ((name: Path<V>) => {
    const value = valueAt(values, name);
    return {
      name,
      ...(typeof value === 'string' ? { defaultValue: value } : {}),
      onChange: () => Promise.resolve(),
      onBlur: () => Promise.resolve(),
      ref: () => undefined,
    };
  }) as UseFormRegister<V>;
}

function valueAt(values: FieldValues, name: string): unknown {
  return name.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], values);
}

function useStaticForm(): UseFormReturn<FieldValues> {
  const form = useContext(StaticFormContext);
  if (!form) throw new Error('a form hook outside its FormProvider');
  return form;
}

const STATIC_LIBRARY = {
  useForm: (props?: UseFormProps<FieldValues>) => staticForm(props?.defaultValues ?? {}),
  FormProvider: ({ children, ...form }: UseFormReturn<FieldValues> & { children: ReactNode }) => (
    <StaticFormContext value={form}>{children}</StaticFormContext>
  ),
  useFormContext: useStaticForm,
  useWatch: ({ name }: { name?: string | readonly string[] }) => {
    const values = useStaticForm().getValues();
    if (name === undefined) return values;
    return typeof name === 'string' ? valueAt(values, name) : name.map((one) => valueAt(values, one));
  },
  useFieldArray: ({ name }: { name: string }) => {
    const items = valueAt(useStaticForm().getValues(), name);
    const fields = Array.isArray(items)
      ? items.map((item: unknown, index) => ({ ...(item !== null && typeof item === 'object' ? item : {}), id: `static-${index}` }))
      : [];
    const ignore = () => undefined;
    return {
      fields,
      append: ignore,
      prepend: ignore,
      insert: ignore,
      remove: ignore,
      swap: ignore,
      move: ignore,
      update: ignore,
      replace: ignore,
    };
  },
} as unknown as Library;
