#!/usr/bin/env bash
# Creates (once) the Python venv the client e2e tests run the official `openai` SDK from, and prints its
# python's path. Idempotent: a venv whose requirements stamp matches test/clients/python/requirements.txt is
# reused as is (no pip call). pip gets short network timeouts and the whole install a hard limit, so a machine
# without PyPI fails here with a clear message instead of hanging a test run.
set -euo pipefail
cd "$(dirname "$0")/.."
requirements=test/clients/python/requirements.txt
venv=.cache/python-clients/venv
stamp="$venv/.requirements.sha256"
wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
  echo "$PWD/$venv/bin/python"
  exit 0
fi
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
  echo "python-clients: Python 3.9+ is needed ('$python' is missing or older)" >&2
  exit 1
fi
rm -rf "$venv"
"$python" -m venv "$venv" >&2
if ! timeout "${PYTHON_CLIENTS_INSTALL_TIMEOUT:-300}" "$venv/bin/python" -m pip install --disable-pip-version-check \
  --no-input --quiet --timeout 15 --retries 2 -r "$requirements" >&2; then
  rm -rf "$venv"
  echo "python-clients: could not install $requirements from PyPI (no network, or PyPI unreachable)" >&2
  exit 1
fi
echo "$wanted" > "$stamp"
echo "$PWD/$venv/bin/python"
