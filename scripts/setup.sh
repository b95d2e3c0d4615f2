#!/usr/bin/env bash
# Installs everything the gateway and its tests need on a fresh machine (Node 24 if the machine's node
# is older, Node deps, bundled ffmpeg/ffprobe). better-sqlite3 13 ships Node-API prebuilds, so nothing
# compiles here. Kafka's broker is fetched by test/kafka/start-broker.sh when tests run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh

npm ci --no-audit --no-fund
# `npm start`, `npm test` and `npm run ...` put node_modules/.bin first on PATH, so this link makes every
# project script run on the Node this install was built for, whatever node the machine has.
if [ -n "${gateway_node_dir:-}" ]; then ln -sf "$gateway_node_dir/bin/node" node_modules/.bin/node; fi
# The bundled ffprobe ships without its exec bit when install scripts are skipped.
chmod +x node_modules/@ffmpeg-installer/linux-x64/ffmpeg node_modules/@ffprobe-installer/linux-x64/ffprobe
