"""A disk that takes no more bytes: the store says what it left on disk, truthfully.

The child process gets a file-size limit of 0 bytes (``RLIMIT_FSIZE``), the way a
full disk refuses every write; its output goes through a pipe, which the limit
does not touch.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = """
import json, os, resource, signal, sys
from devilsgrip.i18n import translate_error
from devilsgrip.session import PlaySession
from devilsgrip.store import Store, StoreError
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
path = sys.argv[1]
try:
    store = Store.open(path)
except StoreError as exc:
    print(json.dumps({"code": exc.code, "text": translate_error(exc)}))
else:
    session = PlaySession.resume(store, 1)
    print(json.dumps({"code": None, "saving": session.saving, "text": session.warning}))
"""


def _full_disk(path: Path) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(sys.platform != "linux", reason="file-size limits as on Linux")
def test_a_new_database_that_cannot_be_made_leaves_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    result = _full_disk(path)
    assert result["code"] == "store-create-failed"
    assert "nothing was left behind" in str(result["text"])
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no empty database, no -wal


@pytest.mark.skipif(sys.platform != "linux", reason="file-size limits as on Linux")
def test_an_existing_database_is_left_as_it_was(tmp_path: Path) -> None:
    from devilsgrip.session import PlaySession
    from devilsgrip.store import Store

    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        session = PlaySession.start(store, number=3)
        session.play_text("d")
    before = path.read_bytes()
    names = sorted(p.name for p in tmp_path.iterdir())
    result = _full_disk(path)
    assert result["code"] is not None
    assert "left untouched" in str(result["text"])
    assert path.read_bytes() == before  # byte for byte
    assert sorted(p.name for p in tmp_path.iterdir()) == names  # no empty side files
