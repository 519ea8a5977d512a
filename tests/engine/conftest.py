"""Shared helpers for the engine tests.

The reference model lives in ``engine_ref.py`` next to this file; pytest runs
with ``--import-mode=importlib``, so this folder is put on ``sys.path`` for it.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
