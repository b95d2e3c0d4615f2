#!/usr/bin/env bash
# Makes sure a Prometheus server binary is on this machine for the metrics e2e test: Debian's
# `prometheus` package (2.42 on bookworm), installed through apt when missing. Prints the binary's
# path. Fails (exit 1, with the reason) when it cannot be installed: the test must not skip silently.
set -euo pipefail
if command -v prometheus >/dev/null 2>&1; then
  command -v prometheus
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "prometheus is not installed and apt-get is not available; install Prometheus >= 2.42 and put it on PATH" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo -n); else
    echo "prometheus is not installed and installing it needs root (apt-get install prometheus)" >&2
    exit 1
  fi
fi
echo "installing Debian's prometheus package (apt-get)..." >&2
# On machines with an init system the package also starts its own service (port 9090); the test uses its own port.
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >&2
command -v prometheus
