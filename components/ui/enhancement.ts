'use client';
import { useEffect, useState } from 'react';
import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';

/**
 * Forms whose react-hook-form code arrives after hydration (issue 32): react-hook-form is about
 * 14 KiB of gzip, the largest single module of a console form page's first load. Such a form
 * renders its markup from a view component that imports no react-hook-form: first, on the server
 * and through hydration, with `staticRegister` and its controls disabled as "not ready yet"
 * (<Form ready={false}>); then, once `useEnhancement` has loaded the module that calls useForm,
 * as that module's live form, with the same markup and nothing typed lost (nothing could be
 * typed: the controls were disabled).
 */
export function useEnhancement<T>(load: () => Promise<T>): { loaded: T | undefined; failed: boolean } {
  const [state, setState] = useState<{ loaded: T | undefined; failed: boolean }>({ loaded: undefined, failed: false });
  useEffect(() => {
    let current = true;
    // One retry: a chunk request cut by a flaky network is usually served on the second try.
    load()
      .catch(() => load())
      .then(
        (loaded) => current && setState({ loaded, failed: false }),
        () => current && setState({ loaded: undefined, failed: true }),
      );
    return () => {
      current = false;
    };
    // The loader is a module import: the same on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return state;
}

/**
 * `register` for the markup rendered before react-hook-form is there: each control gets its name
 * and its default value, and no handlers (it is disabled until the live form replaces it).
 * Checkboxes of an array field take `defaultChecked` from the view, as the live form checks them.
 */
export function staticRegister<V extends FieldValues>(defaults: V): UseFormRegister<V> {
  return ((name: Path<V>) => {
    const value: unknown = defaults[name];
    return {
      name,
      ...(typeof value === 'string' ? { defaultValue: value } : {}),
      onChange: () => Promise.resolve(),
      onBlur: () => Promise.resolve(),
      ref: () => undefined,
    };
  }) as UseFormRegister<V>;
}
