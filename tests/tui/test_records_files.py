"""The game history's records files, in the terminal as in the page: ``e`` writes every
game of the player to a new file (never over one already there), ``i`` reads a file into
them, each game checked; what was done, or why not, is said in the dialog."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pilot_waits import until
from stored_games import given_up
from textual.widgets import Input, OptionList, Static

from devilsgrip.store import Store
from devilsgrip.table.records import export_file_name
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.screens import HistoryScreen, RecordsFileScreen


def _said(screen: RecordsFileScreen) -> str:
    return str(screen.query_one("#records-said", Static).render())


async def _type(pilot: object, screen: RecordsFileScreen, name: str) -> None:
    field = screen.query_one(Input)
    field.value = name
    await pilot.press("enter")  # type: ignore[attr-defined]


def test_the_games_go_out_to_a_file_and_come_back_in(store: Store, tmp_path: Path,
                                                      monkeypatch: object) -> None:
    store.save_game(given_up(7, "d d"), "local")
    store.save_game(given_up(12, "d"), "local")
    store.save_game(given_up(13, "d"), "someone-else")  # not this player's
    other = Store.open(tmp_path / "other.sqlite3")
    out = tmp_path / "mine.txt"
    taken = tmp_path / "taken.txt"
    taken.write_text("keep me", encoding="utf-8")

    async def export() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("H")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            assert "e: export games" in "\n".join(
                str(s.render()) for s in app.screen.query("Packed"))
            await pilot.press("e")
            await until(pilot, lambda: isinstance(app.screen, RecordsFileScreen))
            dialog = app.screen
            assert isinstance(dialog, RecordsFileScreen)
            # offered: a name not taken in the folder the game was started from
            assert dialog.query_one(Input).value == export_file_name(folder=Path.cwd())
            await _type(pilot, dialog, str(taken))  # a file already there: refused
            await until(pilot, lambda: "already there" in _said(dialog))
            assert taken.read_text(encoding="utf-8") == "keep me"
            await _type(pilot, dialog, str(tmp_path / "no-such-folder" / "x.txt"))
            await until(pilot, lambda: "Cannot write" in _said(dialog))
            assert not (tmp_path / "no-such-folder").exists()
            await _type(pilot, dialog, str(out))
            # the two finished and the one on screen, as the page's export has them
            await until(pilot, lambda: "3 games exported to" in _said(dialog))
            assert dialog.query_one(Input).disabled
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))

    asyncio.run(export())
    assert out.read_text(encoding="utf-8").count("[Event") == 3

    async def import_() -> None:
        app = DevilsGripApp(other, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("H")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            history = app.screen
            assert isinstance(history, HistoryScreen) and not history.entries
            await pilot.press("i")
            await until(pilot, lambda: isinstance(app.screen, RecordsFileScreen))
            dialog = app.screen
            assert isinstance(dialog, RecordsFileScreen)
            await _type(pilot, dialog, "")
            await until(pilot, lambda: "Write the name of a file" in _said(dialog))
            await _type(pilot, dialog, str(tmp_path / "missing.txt"))
            await until(pilot, lambda: "There is no file" in _said(dialog))
            await _type(pilot, dialog, str(taken))  # text, but no record
            await until(pilot, lambda: "No game in this file could be read" in _said(dialog))
            await _type(pilot, dialog, str(out))
            await until(pilot, lambda: "3 games imported." in _said(dialog))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            # the history lists them at once
            await until(pilot, lambda: len(app.screen.query(OptionList)) == 1)
            assert app.screen.query_one(OptionList).option_count == 2  # the finished ones

    asyncio.run(import_())
    assert len(other.games(owner="local", finished=True)) == 2
    other.close()


def test_a_file_that_is_not_text_is_refused_and_nothing_is_kept(store: Store,
                                                                 tmp_path: Path) -> None:
    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")

    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("H")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            await pilot.press("i")
            await until(pilot, lambda: isinstance(app.screen, RecordsFileScreen))
            dialog = app.screen
            assert isinstance(dialog, RecordsFileScreen)
            await _type(pilot, dialog, str(binary))
            await until(pilot, lambda: "not UTF-8 text" in _said(dialog))
            await _type(pilot, dialog, str(tmp_path))
            await until(pilot, lambda: "is a folder" in _said(dialog))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            assert not app.screen.entries

    asyncio.run(scenario())
    assert [g.number for g in store.games(owner="local")] == [5]  # the one on screen alone


def test_with_no_game_kept_the_history_offers_no_files() -> None:
    async def scenario() -> None:
        app = DevilsGripApp(None, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("H")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            await pilot.press("e", "i")
            assert isinstance(app.screen, HistoryScreen)
            assert "export" not in "\n".join(
                str(s.render()) for s in app.screen.query("Packed"))

    asyncio.run(scenario())
