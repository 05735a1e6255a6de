import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sourceFiles, sourcesDigest, staleBuildReason } from './build-inputs.mjs';

/** The start command's "build only when something changed" (issue 27 §12), on projects of a few files. */
describe('what the build was made from', () => {
  const made: string[] = [];
  const project = (files: Record<string, string>, git: boolean) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-build-inputs-'));
    made.push(root);
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), content);
    }
    if (git) {
      const run = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
      run('init', '-q');
      run('add', '.');
    }
    return root;
  };
  afterEach(() => {
    for (const root of made.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });

  for (const git of [true, false]) {
    it(`changes with any source's content, not with tests, documents or times (${git ? 'git' : 'no git'})`, () => {
      const root = project(
        {
          '.gitignore': 'node_modules/\n.next/\n',
          'lib/rule.ts': 'export const a = 1;\n',
          'lib/rule.test.ts': 'test\n',
          'e2e/api/x.spec.ts': 'spec\n',
          'README.md': 'readme\n',
          'package-lock.json': '{}\n',
          'node_modules/pkg/index.js': 'x\n',
          '.next/standalone/server.js': 'built\n',
        },
        git,
      );
      expect(sourceFiles(root)).toEqual(['.gitignore', 'lib/rule.ts', 'package-lock.json']);
      const digest = sourcesDigest(root);

      for (const file of ['lib/rule.test.ts', 'e2e/api/x.spec.ts', 'README.md', 'node_modules/pkg/index.js']) {
        fs.appendFileSync(path.join(root, file), 'edited\n');
      }
      fs.utimesSync(path.join(root, 'lib/rule.ts'), new Date(), new Date(Date.now() + 60_000));
      expect(sourcesDigest(root)).toBe(digest);

      fs.writeFileSync(path.join(root, 'lib/rule.ts'), 'export const a = 2;\n');
      expect(sourcesDigest(root)).not.toBe(digest);
      fs.writeFileSync(path.join(root, 'lib/rule.ts'), 'export const a = 1;\n');
      expect(sourcesDigest(root)).toBe(digest);
      fs.writeFileSync(path.join(root, 'lib/new-file.ts'), 'export {};\n'); // a new, not yet committed file counts too
      expect(sourcesDigest(root)).not.toBe(digest);
    });
  }

  it('calls a build stale until its outputs exist and its record matches the sources', () => {
    const root = project({ 'lib/rule.ts': 'export const a = 1;\n' }, false);
    expect(staleBuildReason(root)).toMatch(/server\.js is missing/);
    for (const output of ['.next/standalone/server.js', '.next/api-server/server.mjs', '.next/standalone/create-admin.mjs']) {
      fs.mkdirSync(path.dirname(path.join(root, output)), { recursive: true });
      fs.writeFileSync(path.join(root, output), '');
    }
    expect(staleBuildReason(root)).toBe('no record of what the build was made from');
    fs.writeFileSync(path.join(root, '.next/build-inputs'), sourcesDigest(root));
    expect(staleBuildReason(root)).toBeUndefined();
    fs.writeFileSync(path.join(root, 'lib/rule.ts'), 'export const a = 2;\n');
    expect(staleBuildReason(root)).toBe('sources changed since the last build');
  });
});
