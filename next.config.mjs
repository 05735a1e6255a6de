import { BASELINE_HEADERS } from './lib/http/baseline-headers.mjs';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and dialect-loading packages must stay plain Node requires, not bundled. OpenTelemetry's
  // too, loaded from node_modules as the lean API bundle loads them, its SDK only when tracing is on
  // (lib/observability/tracing-sdk.ts), and copied into the standalone output for the container.
  serverExternalPackages: [
    'knex',
    'better-sqlite3',
    'pg',
    'oracledb',
    'pino',
    'pino-pretty',
    '@opentelemetry/api',
    '@opentelemetry/context-async-hooks',
    '@opentelemetry/core',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/exporter-trace-otlp-proto',
  ],
  // The transformation sandbox's worker thread requires quickjs-emscripten at run time (no import a
  // trace could follow: lib/webhooks/payload-control/sandbox.ts), and its engine reads its .wasm.
  // better-sqlite3 loads a binary compiled here before its prebuilt one (scripts/sqlite-binding.mjs
  // compiles one where the prebuilt does not load); the trace sees only the prebuilt.
  outputFileTracingIncludes: {
    '/**': [
      './node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      './node_modules/quickjs-emscripten/**',
      './node_modules/quickjs-emscripten-core/**',
      './node_modules/@jitl/quickjs-ffi-types/**',
      './node_modules/@jitl/quickjs-wasmfile-release-sync/**',
    ],
  },
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
