import { defineConfig } from 'vitest/config';
import path from 'node:path';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(__dirname),
      // 'server-only' throws outside React Server Components; unit tests run server code directly.
      'server-only': path.resolve(__dirname, 'lib/testing/server-only-noop.ts'),
    },
  },
  test: {
    include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
  },
});
