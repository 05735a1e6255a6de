import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileCycles, folderArrows, folderOf, importGraph, LAYERS, SUB_LAYERS, subFolderArrows } from '@/scripts/layers';

/**
 * The layers of lib/ point one way (issue 28): the order and each folder's allow-list are declared
 * once, in scripts/layers.ts (`npm run layers` prints the table and every arrow; docs/architecture.md
 * explains them). Domain folders may not import lib/http, so services say no with a Refusal and only
 * the API's edge turns it into a status; lib/db imports no feature.
 */
const graph = importGraph();
const arrows = folderArrows(graph);

describe('the layers of lib/', () => {
  it('reads the whole of lib/ and resolves its imports', () => {
    const inLib = [...graph.keys()].filter((file) => folderOf(file) !== undefined);
    expect(inLib.length).toBeGreaterThan(150);
    expect([...graph.values()].reduce((sum, targets) => sum + targets.size, 0)).toBeGreaterThan(500);
  });

  it('has no file cycle', () => {
    const cycles = fileCycles(graph, (file) => folderOf(file) !== undefined);
    expect(cycles.map((cycle) => cycle.map((file) => path.relative(process.cwd(), file)))).toEqual([]);
  });

  it('declares every folder', () => {
    expect(arrows.undeclared).toEqual([]);
  });

  it('has each folder import only what its allow-list names', () => {
    expect(arrows.forbidden.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  it('keeps the arrows pointing back up to at most 10, each one named as an exception', () => {
    expect(arrows.up.length).toBeLessThanOrEqual(10);
  });

  it('keeps the bottom layers free of features and HTTP', () => {
    const bottom = LAYERS.slice(0, LAYERS.findIndex(({ folder }) => folder === 'db') + 1);
    for (const { folder, may } of bottom)
      expect(
        may.filter((other) => !bottom.some((layer) => layer.folder === other)),
        folder,
      ).toEqual([]);
    const domain = ['db', 'auth', 'audit', 'staff', 'api-clients', 'scheduling', 'webhooks', 'idempotency', 'errors', 'config'];
    for (const { folder, may } of LAYERS.filter(({ folder }) => domain.includes(folder))) expect(may, folder).not.toContain('http');
  });

  it('keeps the sub-folders of lib/webhooks pointing one way: none imports one above it, configurations never delivery', () => {
    const order = SUB_LAYERS.webhooks!.map(({ folder }) => folder);
    expect(order.indexOf('events')).toBeLessThan(order.indexOf('configurations'));
    expect(order.indexOf('configurations')).toBeLessThan(order.indexOf('delivery'));
    expect(order.indexOf('delivery')).toBeLessThan(order.indexOf('alerts'));
    expect(order.indexOf('delivery')).toBeLessThan(order.indexOf('operational'));
    const sub = subFolderArrows(graph);
    expect(sub.undeclared).toEqual([]);
    expect(sub.up.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });
});
