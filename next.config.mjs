import { BASELINE_HEADERS } from './lib/http/baseline-headers.mjs';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and dialect-loading packages must stay plain Node requires, not bundled.
  serverExternalPackages: ['knex', 'better-sqlite3', 'pg', 'oracledb', 'pino', 'pino-pretty'],
  // A self-contained server (.next/standalone) for containers: see Dockerfile.
  output: 'standalone',
  poweredByHeader: false,
  // forbidden() in console layouts renders app/forbidden.tsx with status 403.
  experimental: { authInterrupts: true },
  // Baseline security headers on every answer, pages and API alike.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [...BASELINE_HEADERS],
      },
    ];
  },
};

export default nextConfig;
