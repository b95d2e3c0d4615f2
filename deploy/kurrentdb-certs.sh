#!/usr/bin/env bash
# Makes a private CA and a KurrentDB node certificate with openssl, for the compose setup and the
# kurrentdb-tls Secret of deploy/k8s/kurrentdb.yaml (production: your own PKI or cert-manager).
#   deploy/kurrentdb-certs.sh [OUT_DIR] [EXTRA_DNS_NAME...]     (default OUT_DIR: deploy/certs)
# Writes OUT_DIR/ca/ca.crt, OUT_DIR/ca/ca.key (keep it private, nothing mounts it), OUT_DIR/node/node.crt and
# OUT_DIR/node/node.key. The node certificate names localhost, 127.0.0.1, kurrentdb and the extra names
# (e.g. kurrentdb.<namespace>.svc); clients verify it against ca.crt (tlsCAFile in the connection string).
# Existing files are kept: delete OUT_DIR to renew.
set -euo pipefail
out="${1:-$(dirname "$0")/certs}"
shift || true
if [ -f "$out/node/node.crt" ]; then
  echo "kurrentdb-certs: $out/node/node.crt exists, keeping it (delete $out to renew)"
  exit 0
fi
mkdir -p "$out/ca" "$out/node"
days=825
openssl req -x509 -newkey rsa:3072 -nodes -sha256 -days 3650 -subj "/CN=inference-gateway KurrentDB CA" \
  -keyout "$out/ca/ca.key" -out "$out/ca/ca.crt" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
san="DNS:localhost,DNS:kurrentdb,IP:127.0.0.1"
for name in "$@"; do san="$san,DNS:$name"; done
openssl req -newkey rsa:3072 -nodes -sha256 -subj "/CN=kurrentdb-node" \
  -keyout "$out/node/node.key" -out "$out/node/node.csr" 2>/dev/null
openssl x509 -req -sha256 -days "$days" -in "$out/node/node.csr" -CA "$out/ca/ca.crt" -CAkey "$out/ca/ca.key" \
  -CAcreateserial -out "$out/node/node.crt" \
  -extfile <(printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=%s\n' "$san") 2>/dev/null
rm -f "$out/node/node.csr" "$out/ca/ca.srl"
chmod 600 "$out/ca/ca.key"
# Read inside the containers by their own users (KurrentDB's, the gateway's node user): local copies only.
chmod 644 "$out/ca/ca.crt" "$out/node/node.crt" "$out/node/node.key"
echo "kurrentdb-certs: CA $out/ca/ca.crt, node certificate $out/node/node.crt for $san"
