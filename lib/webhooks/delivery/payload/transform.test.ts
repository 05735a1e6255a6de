import { describe, expect, it } from 'vitest';
import { compiledCount, runInSandbox } from '../../payload-control/sandbox';
import { transform } from './transform';

const input = { type: 'avaliacao-saude.concluida', payload: { data: { valor: 2 } }, headers: { 'X-Origem': 'console' } };

async function failure(code: string) {
  const result = await transform(`test-${Math.random()}`, code, input);
  expect(result.outcome).toBe('failed');
  return (result as { reason: string }).reason;
}

describe('transform', { timeout: 20_000 }, () => {
  it('runs the handler and answers its payload and headers', async () => {
    const result = await transform(
      'cfg-1',
      `function handler(webhook) {
         return { payload: { tipo: webhook.type, dobro: webhook.payload.data.valor * 2, origem: webhook.headers['X-Origem'] }, headers: { 'X-Extra': 'sim' } };
       }`,
      input,
    );
    expect(result).toEqual({
      outcome: 'sent',
      payload: { tipo: 'avaliacao-saude.concluida', dobro: 4, origem: 'console' },
      headers: { 'X-Extra': 'sim' },
    });
  });

  it('cancels with null or { cancel: true }', async () => {
    expect(await transform('cfg-2', 'function handler() { return null; }', input)).toEqual({ outcome: 'cancelled' });
    expect(await transform('cfg-3', 'function handler() { return { cancel: true }; }', input)).toEqual({ outcome: 'cancelled' });
  });

  it('compiles once per configuration and version of the code', async () => {
    const code = 'var runs = 0; function handler(w) { runs++; return { payload: runs }; }';
    const first = await transform('cfg-cache', code, input);
    const second = await transform('cfg-cache', code, input);
    expect([first, second]).toEqual([
      { outcome: 'sent', payload: 1, headers: {} },
      { outcome: 'sent', payload: 2, headers: {} },
    ]);
    // Another configuration with the same code has a runtime, and globals, of its own.
    expect(await transform('cfg-other', code, input)).toEqual({ outcome: 'sent', payload: 1, headers: {} });
    // A new version starts over.
    expect(await transform('cfg-cache', `${code}\n`, input)).toEqual({ outcome: 'sent', payload: 1, headers: {} });
    expect(compiledCount()).toBeGreaterThanOrEqual(3);
  });

  it('names a syntax error, a missing handler and a throw', async () => {
    expect(await failure('function handler( {')).toMatch(/^compilacao: SyntaxError/);
    expect(await failure('function outra() {}')).toMatch(/^sem-handler/);
    expect(await failure('function handler() { throw new TypeError("sem valor"); }')).toBe('excecao: TypeError: sem valor');
    expect(await failure('function handler() { throw "texto"; }')).toBe('excecao: Error: texto');
  });

  it('refuses invalid results', async () => {
    expect(await failure('function handler() { return 42; }')).toMatch(/^resultado-invalido/);
    expect(await failure('function handler() { return {}; }')).toMatch(/^resultado-invalido: the result has no payload/);
    expect(await failure('function handler() { return { payload: 1, headers: { "Webhook-Signature": "x" } }; }')).toMatch(
      /set by the delivery/,
    );
    expect(await failure('function handler() { return { payload: 1, headers: { "X": 1 } }; }')).toMatch(/must be a string/);
    expect(await failure('async function handler() { return { payload: 1 }; }')).toMatch(/synchronously/);
  });

  it('stops an endless loop, a memory bomb, deep recursion and a huge result within its limits', async () => {
    expect(await failure('function handler() { while (true) {} }')).toMatch(/^tempo-esgotado/);
    expect(await failure('function handler() { var a = []; for (;;) a.push(new Array(100000).fill(1)); }')).toMatch(
      /^(memoria-esgotada|tempo-esgotado)/,
    );
    expect(await failure('function handler() { function f(n) { return f(n + 1) + 1; } return f(0); }')).toMatch(/^pilha-esgotada/);
    expect(await failure('function handler() { return { payload: "x".repeat(300000) }; }')).toMatch(/^resultado-grande-demais/);
    expect(await failure('var x = 1; while (true) {} function handler() {}')).toMatch(/^tempo-esgotado/);
  });

  it('a memory bomb within the time hits the memory limit', async () => {
    const reason = await failure('function handler() { var s = "x"; for (;;) s = s + s; }');
    expect(reason).toMatch(/^memoria-esgotada/);
  });

  it('has no network, file system, timers, require nor process', async () => {
    const probe = `function handler() {
      return { payload: [typeof fetch, typeof require, typeof process, typeof setTimeout, typeof setInterval, typeof XMLHttpRequest, typeof std, typeof os, typeof globalThis.Deno, typeof WebAssembly] };
    }`;
    expect(await transform('cfg-probe', probe, input)).toEqual({ outcome: 'sent', payload: Array(10).fill('undefined'), headers: {} });
    expect(await failure('function handler() { return { payload: require("fs").readFileSync("/etc/passwd", "utf8") }; }')).toMatch(
      /^excecao: ReferenceError: 'require' is not defined/,
    );
    expect(await failure('function handler() { return { payload: process.env }; }')).toMatch(/ReferenceError/);
    expect(await failure('function handler() { fetch("http://127.0.0.1/"); }')).toMatch(/ReferenceError/);
  });

  it('a run a native loop holds past its deadline is ended (the backstop terminates its worker, or the memory cap), and the next run goes on', async () => {
    // A memory limit far above what the loop reaches in time, so only the backstop can end it.
    const limits = { timeMs: 10, memoryBytes: 2048 * 1024 * 1024, stackBytes: 256 * 1024, outputBytes: 1024 };
    const code = 'function handler() { var a = []; for (;;) a.push(new Array(3000000).fill(1)); }';
    const run = await runInSandbox('cfg-native-loop', code, JSON.stringify(input), limits);
    expect(run).toEqual({ ok: false, reason: expect.stringMatching(/^(tempo-esgotado|memoria-esgotada)/) as unknown });
    const after = await runInSandbox('cfg-native-loop', 'function handler(w) { return { payload: 1 }; }', JSON.stringify(input));
    expect(after).toEqual({ ok: true, output: '{"payload":1}' });
  });

  it('keeps working after hostile runs', async () => {
    await failure('function handler() { var s = "x"; for (;;) s = s + s; }');
    const run = await runInSandbox('cfg-after', 'function handler(w) { return { payload: w.payload }; }', JSON.stringify(input));
    expect(run).toEqual({ ok: true, output: JSON.stringify({ payload: input.payload }) });
  });
});
