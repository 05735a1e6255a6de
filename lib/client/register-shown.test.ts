import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { registerChecked, registerShown } from './register-shown';

type Stored = { url: string; ativo: boolean; entregaOrdenada: boolean; headers: { chave: string; valor: string }[] };
const STORED: Stored = {
  url: 'https://receptor.exemplo.com.br/eventos',
  ativo: true,
  entregaOrdenada: false,
  headers: [{ chave: 'X-Origem', valor: 'console' }],
};

/** A stored configuration's form as the server renders it, with register alone or with the helpers. */
function html(shown: boolean): string {
  function StoredForm() {
    const form = useForm<Stored>({ defaultValues: STORED });
    const text = (name: 'url' | 'headers.0.chave') => (shown ? registerShown(form, name) : form.register(name));
    const box = (name: 'ativo' | 'entregaOrdenada') => (shown ? registerChecked(form, name) : form.register(name));
    return createElement(
      'form',
      null,
      createElement('input', { id: 'url', ...text('url') }),
      createElement('input', { id: 'chave', ...text('headers.0.chave') }),
      createElement('input', { id: 'ativo', type: 'checkbox', ...box('ativo') }),
      createElement('input', { id: 'entregaOrdenada', type: 'checkbox', ...box('entregaOrdenada') }),
    );
  }
  return renderToString(createElement(StoredForm));
}

describe('registerShown and registerChecked', () => {
  it('put the stored values in the server’s HTML, which register alone leaves empty', () => {
    const bare = html(false);
    expect(bare).not.toContain(STORED.url);
    expect(bare).not.toContain('checked');

    const shown = html(true);
    expect(shown).toContain(`name="url" value="${STORED.url}"`);
    expect(shown).toContain('name="headers.0.chave" value="X-Origem"');
    expect(shown).toContain('name="ativo" checked=""');
    expect(shown).not.toMatch(/id="entregaOrdenada"[^>]*checked/);
  });
});
