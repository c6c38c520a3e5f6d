# Sourced by scripts/run and scripts/test: make .venv with a Python >= 3.11
# and install the project into it (quietly; only what changed is installed).
pick_python() {
  for candidate in "${PYTHON:-}" python3 python3.13 python3.12 python3.11 python; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  echo "no Python 3.11 or newer found: install one or set PYTHON=/path/to/python" >&2
  return 1
}
if [ ! -x .venv/bin/python ]; then
  PY=$(pick_python)
  echo "== creating .venv with $($PY --version)"
  "$PY" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
# Reinstall only when the dependency list changed since the last install.
stamp=$(.venv/bin/python -c 'import hashlib,sys; print(hashlib.sha256(open("pyproject.toml","rb").read()).hexdigest())')
if [ "$(cat .venv/.pyproject-installed 2>/dev/null)" != "$stamp" ]; then
  echo "== installing the project and its dependencies into .venv"
  .venv/bin/python -m pip install -q -e '.[test]'
  echo "$stamp" > .venv/.pyproject-installed
fi
