// `npm run generate:routes`: writes lib/api/routes.generated.ts, the method and path of every
// operation of lib/api/operations.ts, for the browser's code (lib/api/routes.ts), which must not
// carry the operations' documentation. Run it after adding or moving an operation; the unit test
// lib/api/routes.test.ts fails until the file matches.
import fs from 'node:fs';
import path from 'node:path';
import { operations } from '@/lib/api/operations';

const target = path.resolve(import.meta.dirname, '..', 'lib', 'api', 'routes.generated.ts');
const entries = Object.entries(operations).map(
  ([id, { method, path: template }]) => `export const ${id} = { method: '${method}', path: '${template}' } as const satisfies Route;`,
);
const text = [
  '// Generated from lib/api/operations.ts by `npm run generate:routes`: do not edit.',
  "// One export per operation: a page's bundle carries the routes its code imports, not the table.",
  "import type { Route } from '@/lib/http/paths';",
  '',
  ...entries,
  '',
].join('\n');
fs.writeFileSync(target, text);
console.log(`${entries.length} operations → ${path.relative(process.cwd(), target)}`);
