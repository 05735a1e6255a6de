import { defineConfig } from 'vitest/config';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@': root,
      // 'server-only' throws outside React Server Components; unit tests run server code directly.
      'server-only': path.resolve(root, 'lib/testing/server-only-noop.ts'),
    },
  },
  test: {
    include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts', 'scripts/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    env: { LOG_SILENT: 'true' },
  },
});
