// `server-only` throws outside React Server Components' resolution; the bundles esbuild makes for
// node (the lean API server, the create-admin command) are server-only by nature, so it is empty there.
export const serverOnly = {
  name: 'server-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'empty' }));
    esbuild.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '', loader: 'js' }));
  },
};
