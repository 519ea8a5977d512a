"""Records files on disk (the terminal's export and import): an export never writes over
a file and leaves nothing behind when it fails; an import refuses, in words, what it
cannot read, and writes nothing then."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from devilsgrip import codes
from devilsgrip.game import Game
from devilsgrip.store import Store
from devilsgrip.table import Words
from devilsgrip.table.controller import Refusal
from devilsgrip.table.records import (
    FILE_MOST,
    export_file_name,
    export_to_file,
    import_from_file,
    import_told,
    records_path,
)


@pytest.fixture
def kept(tmp_path: Path) -> Store:
    store = Store.open(tmp_path / "games.sqlite3")
    game = Game(9)
    game.play_all_text("d d")
    game.give_up()
    store.save_game(game, "me")
    return store


def test_an_export_that_fails_leaves_no_file(kept: Store, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "games.txt"

    class Full:
        def __init__(self, handle: object) -> None:
            self.handle = handle

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()  # type: ignore[attr-defined]

        def write(self, text: str) -> int:
            raise OSError(28, "No space left on device")

    real_open = Path.open
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: Full(real_open(self, *a, **k)))
    with pytest.raises(Refusal) as refused:
        export_to_file(kept, "me", out, Words("en"))
    assert refused.value.code == codes.FILE_UNWRITABLE
    assert refused.value.text == f"Cannot write {out}: No space left on device."
    assert not out.exists()


def test_nothing_to_export_writes_nothing(kept: Store, tmp_path: Path) -> None:
    out = tmp_path / "games.txt"
    assert export_to_file(kept, "nobody", out, Words("en")) == "There is no game to export yet."
    assert not out.exists()


def test_an_export_reads_back_in_and_says_so_in_the_players_words(kept: Store,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "games.txt"
    assert export_to_file(kept, "me", out, Words("fr")).startswith("1 partie exportée")
    answer = import_from_file(kept, "you", out, Words("en"))
    assert import_told(answer, Words("en")) == "1 game imported."
    answer = import_from_file(kept, "you", out, Words("en"))
    assert answer.said == "No game imported. 1 game was already kept."


def test_a_file_too_large_is_refused_unread(kept: Store, tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:
        handle.truncate(FILE_MOST + 1)
    with pytest.raises(Refusal) as refused:
        import_from_file(kept, "me", big, Words("en"))
    assert refused.value.code == codes.FILE_UNREADABLE
    assert "too large" in refused.value.text
    assert len(kept.games(owner="me")) == 1


def test_a_name_is_asked_for_and_made_a_whole_path(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    with pytest.raises(Refusal) as refused:
        records_path("   ", Words("en"))
    assert refused.value.text == "Write the name of a file."
    assert records_path("~/games.txt", Words("en")) == Path.home() / "games.txt"
    monkeypatch.chdir(tmp_path)
    assert records_path(" games.txt ", Words("en")) == tmp_path / "games.txt"


def test_the_name_offered_is_one_not_taken(tmp_path: Path) -> None:
    day = date(2026, 12, 6)
    assert export_file_name(day, tmp_path) == "devilsgrip-games-2026-12-06.txt"
    (tmp_path / "devilsgrip-games-2026-12-06.txt").touch()
    (tmp_path / "devilsgrip-games-2026-12-06-2.txt").touch()
    assert export_file_name(day, tmp_path) == "devilsgrip-games-2026-12-06-3.txt"
    assert export_file_name(day) == "devilsgrip-games-2026-12-06.txt"
