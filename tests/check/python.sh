# tests/check/python.sh - sourced: TRUTH_PY, a Python 3 with numpy and scipy
# for tests/check/recompute.py (Debian's python3-scipy lives in
# /usr/bin/python3; a pyenv python3 first on PATH may lack it), empty when
# there is none.
TRUTH_PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import numpy, scipy.stats' 2>/dev/null; then TRUTH_PY=$p; break; fi
done
