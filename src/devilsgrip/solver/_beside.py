"""The process beside a search: ``python -m devilsgrip.solver._beside ORDER ANSWER``.

``ORDER`` holds a pickled ``(target, args)``; the answer ``target(*args)``, or None when it
failed, is pickled into ``ANSWER`` once it is whole (written beside it, then renamed), so
the caller never reads half an answer.  Nothing is printed: the terminal game's screen
may share the terminal.  The program that asked is never imported here (a script that
calls the solver needs no ``if __name__ == "__main__"`` guard); the target is found by
its module, so it must be importable.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path


def run(order: Path, answer: Path) -> None:
    """Read the order, compute the answer and put it in place."""
    try:
        target, args = pickle.loads(order.read_bytes())
        found = target(*args)
    except Exception:
        found = None
    partial = answer.with_name(answer.name + ".part")
    partial.write_bytes(pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(partial, answer)


if __name__ == "__main__":
    run(Path(sys.argv[1]), Path(sys.argv[2]))
