import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Errors reach HTTP by one path (issue 28): services, adapters and operations throw a Refusal or a
 * FieldRejected, and only the wrapper (lib/http) turns them into answers, through one table
 * (lib/http/errors.ts). So nothing outside lib/http makes or throws the HTTP layer's own ApiError,
 * and no operation sorts errors by class: what an operation does with a refusal it declares
 * (`onRefused`), reading the problem the wrapper answers, not the error.
 */
const ROOT = path.resolve(__dirname, '../..');

function sources(folder: string): string[] {
  return fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return sources(relative);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

const files = [...['lib', 'app', 'components'].flatMap(sources), 'proxy.ts'].map((file) => ({
  file,
  text: fs.readFileSync(path.join(ROOT, file), 'utf8'),
}));
const outsideHttp = files.filter(({ file }) => !file.startsWith('lib/http/'));

describe('one error path', () => {
  it('finds the sources', () => {
    expect(files.map(({ file }) => file)).toEqual(expect.arrayContaining(['lib/http/route.ts', 'lib/api/operations/scheduling.ts']));
  });

  it('makes ApiError inside lib/http only', () => {
    const offending = files.filter(({ file, text }) => !file.startsWith('lib/http/') && /\bnew\s+ApiError\b/.test(text));
    expect(offending.map(({ file }) => file)).toEqual([]);
  });

  it('throws the HTTP layer’s problems inside lib/http only; elsewhere a Refusal says why', () => {
    const offending = outsideHttp.filter(({ text }) => /\bthrow\s+problems\./.test(text)).map(({ file }) => file);
    expect(offending).toEqual([]);
  });

  it('names ApiError inside lib/http only (nothing else throws or expects one)', () => {
    const offending = outsideHttp.filter(({ text }) => /\bApiError\b/.test(text)).map(({ file }) => file);
    expect(offending).toEqual([]);
  });

  it('has no operation that sorts errors by class', () => {
    const operations = files.filter(({ file }) => file.startsWith('lib/api/operations/'));
    expect(operations.length).toBeGreaterThan(5);
    const offending = operations.filter(({ text }) => /\binstanceof\b/.test(text)).map(({ file }) => file);
    expect(offending).toEqual([]);
  });

  it('answers no operation by hand: handlers return declared answers, the wrapper renders them', () => {
    const operations = files.filter(({ file }) => file.startsWith('lib/api/operations/'));
    const offending = operations
      .filter(({ text }) => /\bjsonResponse\b|@\/lib\/http\/(errors|problem)'/.test(text))
      .map(({ file }) => file);
    expect(offending).toEqual([]);
  });
});
