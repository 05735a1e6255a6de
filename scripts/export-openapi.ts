// Writes the OpenAPI document the server answers at /api/openapi.json to a file, without a server,
// for `npm run lint:openapi` (redocly lint) and for client generators.
import fs from 'node:fs';
import path from 'node:path';
import { operations } from '@/lib/api/operations';
import { buildOpenApiDocument } from '@/lib/openapi/document';

const target = process.argv[2] ?? 'openapi.json';
fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
fs.writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(operations), null, 2)}\n`);
