#!/usr/bin/env bash
# Validates deploy/k8s/**/*.yaml with kubeconform against the Kubernetes JSON schemas, offline:
#   test/deploy/kubeconform.sh [MANIFEST...]        (default: deploy/k8s/*.yaml and the PostgreSQL variant, deploy/k8s/postgres/*.yaml)
# kubeconform comes from the Go module proxy (`go install`), the schemas from the kubernetes-validate
# package on PyPI (it ships them per Kubernetes release); both are cached in .cache/deploy-tools/. The
# package's schemas point into one shared definitions file, which kubeconform cannot follow from disk, so
# the kinds the manifests use are rewritten here into standalone schemas. The ServiceMonitor is a CRD
# with no schema offline: it is skipped (test/deploy/metrics-deploy.spec.ts checks its fields).
# Exit: 0 valid, 1 invalid, 3 when go or python3 is missing (the caller skips and says why).
set -euo pipefail
cd "$(dirname "$0")/../.."
K8S_VERSION=1.37.0
KUBECONFORM_VERSION=v0.8.0
tools=.cache/deploy-tools
manifests=("$@")
[ ${#manifests[@]} -gt 0 ] || manifests=(deploy/k8s/*.yaml deploy/k8s/postgres/*.yaml)

for tool in go python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "kubeconform.sh: $tool is not installed" >&2; exit 3; }
done
mkdir -p "$tools"
if [ ! -x "$tools/bin/kubeconform" ]; then
  GOBIN="$PWD/$tools/bin" GOFLAGS=-mod=mod go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION" >&2
fi
if [ ! -x "$tools/venv/bin/python" ] || ! "$tools/venv/bin/python" -c 'import kubernetes_validate' 2>/dev/null; then
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install -q --disable-pip-version-check "kubernetes-validate==$K8S_VERSION" >&2
fi

schemas="$tools/schemas/v$K8S_VERSION-standalone-strict"
mkdir -p "$schemas"
"$tools/venv/bin/python" - "$K8S_VERSION" "$schemas" "${manifests[@]}" <<'PY'
import json, os, sys, yaml, kubernetes_validate
version, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
source = os.path.join(os.path.dirname(kubernetes_validate.__file__), 'kubernetes-json-schema', f'v{version}-local-strict')
definitions = None
for path in files:
    for doc in yaml.safe_load_all(open(path)):
        if not doc or doc.get('kind') == 'ServiceMonitor':
            continue
        group_version = doc['apiVersion'].split('/')
        suffix = '-' + group_version[0].split('.')[0].lower() + ('-' + group_version[1].lower() if len(group_version) > 1 else '')
        name = f"{doc['kind'].lower()}{suffix}.json"
        if os.path.exists(os.path.join(out, name)):
            continue
        if definitions is None:
            definitions = json.load(open(os.path.join(source, '_definitions.json')))['$defs']
        text = open(os.path.join(source, name)).read().replace('"/api/_definitions.json#/$defs/', '"#/$defs/')
        schema = json.loads(text)
        schema['$defs'] = json.loads(json.dumps(definitions).replace('"/api/_definitions.json#/$defs/', '"#/$defs/'))
        json.dump(schema, open(os.path.join(out, name), 'w'))
PY
exec "$tools/bin/kubeconform" -strict -summary -kubernetes-version "$K8S_VERSION" -skip ServiceMonitor \
  -schema-location "$tools/schemas/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
  "${manifests[@]}"
