import { describe, expect, it } from 'vitest';
import { operations } from './operations';
import { routes } from './routes';

describe('the browser’s route table', () => {
  it('is the method and path of every operation, as generated from lib/api/operations.ts (else: npm run generate:routes)', () => {
    const declared = Object.fromEntries(Object.entries(operations).map(([id, { method, path }]) => [id, { method, path }]));
    expect({ ...routes }).toEqual(declared);
  });
});
