"""Two processes (and several threads) writing the same database at once."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from store_helpers import STORE_CHILD

from devilsgrip.session import PlaySession
from devilsgrip.store import Store


def test_two_processes_write_at_once(db: Path) -> None:
    Store.open(db).close()  # created (and migrated) once, then both race on it
    count = 400
    procs = [
        subprocess.Popen([sys.executable, str(STORE_CHILD), str(db), str(seed), str(count)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for seed in (21, 22)
    ]
    # the parent writes too, while they play
    with Store.open(db) as store:
        for i in range(60):
            store.set_setting("local", f"k{i % 5}", str(i))
            store.create_web_session()
        outs = [p.communicate(timeout=120) for p in procs]
        for p, (out, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0, err
            assert out.splitlines()[-1] == "done"
        ids = [int(out.splitlines()[0].split()[1]) for out, _err in outs]
        assert len(set(ids)) == 2
        for gid in ids:
            assert len(store.events(gid)) == count
            store.load_game(gid)  # replays
        assert store.get_setting("local", "k4") == "59"


def test_threads_share_one_store(store: Store) -> None:
    errors: list[BaseException] = []
    sessions = [PlaySession.start(store, number=100 + i, owner=f"web:t{i}") for i in range(4)]

    def worker(session: PlaySession) -> None:
        try:
            for _ in range(40):
                session.play(session.game.generate_moves()[0])
                store.get_setting(session.owner, "lang")
                store.set_setting(session.owner, "lang", "fr")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(s,)) for s in sessions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for s in sessions:
        assert s.saving
        assert s.game_id is not None
        assert len(store.events(s.game_id)) == 40
        assert store.load_game(s.game_id).position() == s.game.position()
        assert store.current_game(s.owner) == s.game_id


def test_processes_racing_to_create_the_database(tmp_path: Path) -> None:
    db = tmp_path / "new" / "games.db"  # the file does not exist yet (its folder does)
    db.parent.mkdir()
    procs = [
        subprocess.Popen([sys.executable, str(STORE_CHILD), str(db), str(seed), "20"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for seed in (31, 32, 33, 34)
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert out.splitlines()[-1] == "done"
    with Store.open(db) as store:
        games = store.games()
        assert sorted(g.number or 0 for g in games) == [31, 32, 33, 34]
        assert all(len(store.events(g.id)) == 20 for g in games)
