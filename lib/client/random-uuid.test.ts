import { describe, expect, it } from 'vitest';
import { randomUuidV4 } from './random-uuid';

describe('randomUuidV4', () => {
  it('gives version 4, variant 10 UUIDs, each different', () => {
    const ids = Array.from({ length: 200 }, randomUuidV4);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
