// First-load JavaScript of each console and portal route: the scripts a signed-in browser's first visit
// loads (every <script src> of the page's HTML), gzip-compressed as served, against a minimal App
// Router page (a layout and a page with one heading) built with the same Next version and served
// the same way.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pageCookies } from './session.mjs';
import { consolePages } from './lighthouse.mjs';

async function scriptBytes(url, pagePath, cookie) {
  const html = await (await fetch(`${url}${pagePath}`, { headers: cookie ? { cookie } : {} })).text();
  // Not the nomodule polyfills: browsers that run modules (all of today's) never load them.
  const tags = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]).filter((tag) => !/\bnomodule\b/i.test(tag));
  const sources = [...new Set(tags.map((tag) => /\bsrc="([^"]+\.js[^"]*)"/.exec(tag)?.[1]).filter(Boolean))];
  let gzip = 0;
  for (const source of sources) {
    const body = Buffer.from(await (await fetch(new URL(source, url))).arrayBuffer());
    gzip += zlib.gzipSync(body, { level: 6 }).length;
  }
  return { gzip, files: sources.length };
}

/**
 * A minimal App Router page (a layout and a page with one heading) built with the same Next
 * version and served by `next start`: the baseline of sections 5 and 6.
 */
let minimalBuilt = false;
export async function startMinimalApp(root, port = 4399) {
  const dir = path.join(root, '.bench', 'minimal-app');
  fs.mkdirSync(path.join(dir, 'app'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'app', 'layout.jsx'),
    'export default function Layout({ children }) { return <html lang="pt-BR"><head><title>Mínima</title></head><body>{children}</body></html>; }\n',
  );
  fs.writeFileSync(path.join(dir, 'app', 'page.jsx'), 'export default function Page() { return <main><h1>Mínima</h1></main>; }\n');
  const next = path.join(root, 'node_modules', '.bin', 'next');
  // Built once per bench run, with the Next version installed now.
  if (!minimalBuilt) {
    execFileSync(next, ['build', dir], { stdio: 'ignore', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    minimalBuilt = true;
  }
  const server = spawn(next, ['start', dir, '-p', String(port), '-H', '127.0.0.1'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    try {
      await fetch(url);
      return { url, stop: () => server.kill() };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  server.kill();
  throw new Error('minimal app did not start');
}

async function minimalPageBytes(root, port) {
  const minimal = await startMinimalApp(root, port);
  try {
    return await scriptBytes(minimal.url, '/');
  } finally {
    minimal.stop();
  }
}

export async function firstLoadJs({ root, url, staff, tenant, webhookId, minimalPort, only = undefined }) {
  const cookies = await pageCookies(url, staff, tenant);
  const minimal = await minimalPageBytes(root, minimalPort);
  const kib = (bytes) => (bytes / 1024).toFixed(1);
  console.log(`  minimal App Router page: ${kib(minimal.gzip)} KiB in ${minimal.files} files`);
  const routes = consolePages(webhookId).filter(([key]) => !only || only.includes(key));
  for (const [, , route, session] of routes) {
    const { gzip, files } = await scriptBytes(url, route, cookies[session]);
    console.log(`  ${route.padEnd(52)} ${kib(gzip).padStart(7)} KiB  ${(gzip / minimal.gzip).toFixed(3)}×  (${files} files)`);
  }
}
