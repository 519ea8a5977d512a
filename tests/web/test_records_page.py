"""Export and import in the page: the menu downloads the player's games as a records file
(the desktop program imports it) and reads a file the player chooses (what the desktop
program exports); the answer is told in the player's words, a damaged file is refused
whole (Playwright's download and file chooser, Debian's Chromium)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from devilsgrip.cli import main
from devilsgrip.store import Store

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

if shutil.which("chromium") is None:  # pragma: no cover - depends on the machine
    pytest.skip("chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, Page  # noqa: E402


@pytest.fixture
def open_as(browser: Browser, make_server: Callable[..., Any]) -> Iterator[Callable[..., Page]]:
    """A page of one server, for a new player each time (its own browser context)."""
    server = make_server(game=5)
    contexts: list[Any] = []

    def open_(locale: str = "en-GB", width: int = 1280, height: int = 800) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height},
                                      reduced_motion="reduce", locale=locale,
                                      accept_downloads=True)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors  # type: ignore[attr-defined]
        page.goto(server.url + "/")
        page.wait_for_function("() => document.body.dataset.ready && !document.body.dataset.busy")
        return page

    open_.server = server  # type: ignore[attr-defined]
    yield open_
    for context in contexts:
        context.close()


def call(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return page.evaluate(
        """([method, path, body]) => fetch(path, {method, headers: {'Content-Type':
            'application/json'}, body: body === null ? undefined : JSON.stringify(body)})
            .then(r => r.json())""", [method, path, body])


def menu(page: Page, entry: str) -> None:
    page.click("#btn-menu")
    page.locator("#menu-list").get_by_role("button", name=entry, exact=True).click()


def answer(page: Page) -> str:
    page.wait_for_function("() => document.getElementById('dlg-records').open"
                           " && !document.getElementById('records-body').textContent"
                           ".endsWith('…')")
    return page.inner_text("#records-body")


def finished_games(page: Page) -> int:
    return int(call(page, "GET", "/api/history")["total"])


def test_games_go_out_to_the_desktop_and_come_back_in(open_as: Callable[..., Page],
                                                      tmp_path: Path) -> None:
    player = open_as()
    for path in ("/api/stock", "/api/giveup"):
        assert "view" in call(player, "POST", path, {})
    with player.expect_download() as waiting:
        menu(player, "Export games")
    download = waiting.value
    assert download.suggested_filename.startswith("devilsgrip-games-")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    assert answer(player).startswith("1 game exported to devilsgrip-games-")
    # the desktop program reads it
    desktop = tmp_path / "desktop.sqlite3"
    assert main(["import", str(saved), "--db", str(desktop)]) == 0
    with Store.open(desktop) as store:
        assert [(g.number, g.moves) for g in store.games()] == [(5, 1)]
    ARTIFACTS.mkdir(exist_ok=True)
    player.screenshot(path=str(ARTIFACTS / "records-export-1280.png"))
    # another player (another browser) imports the desktop program's export, in French
    out = tmp_path / "from-desktop.txt"
    assert main(["export", "--all", "--out", str(out), "--db", str(desktop)]) == 0
    other = open_as("fr-FR", 390, 844)
    assert finished_games(other) == 0
    with other.expect_file_chooser() as chooser:
        menu(other, "Importer des parties…")
    chooser.value.set_files(str(out))
    assert answer(other) == "1 partie importée."
    assert finished_games(other) == 1
    other.screenshot(path=str(ARTIFACTS / "records-import-390.png"))
    # the same file again: kept already, nothing added
    other.locator("#dlg-records .close").click()
    with other.expect_file_chooser() as chooser:
        menu(other, "Importer des parties…")
    chooser.value.set_files(str(out))
    assert answer(other) == "Aucune partie importée. 1 partie était déjà enregistrée."
    assert finished_games(other) == 1
    assert player.errors == [] and other.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("content", [b"\x89PNG\r\n\x1a\n\x00\xff\xfe", b"not a record\n"])
def test_a_damaged_file_is_reported_and_nothing_is_written(open_as: Callable[..., Page],
                                                           tmp_path: Path,
                                                           content: bytes) -> None:
    page = open_as()
    assert "view" in call(page, "POST", "/api/stock", {})
    before = call(page, "GET", "/api/stats")
    damaged = tmp_path / "games.txt"
    damaged.write_bytes(content)
    with page.expect_file_chooser() as chooser:
        menu(page, "Import games…")
    chooser.value.set_files(str(damaged))
    text = answer(page)
    assert text.lower().endswith("nothing was imported."), text
    assert page.locator("#records-body .form-error").count() == 1
    assert call(page, "GET", "/api/stats") == before
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_statistics_dialog_chooses_the_rules_it_counts(open_as: Callable[..., Page]) -> None:
    from devilsgrip.game import Game
    from devilsgrip.records import write_record
    from devilsgrip.solver import play_game

    page = open_as(locale="fr-FR", width=390, height=844)
    games = [play_game(Game(n, rules=rules), "greedy", time_limit=0.05)
             for n, rules in ((3, "classic"), (4, "classic"), (6, "single-pass"))]
    records = [write_record(g) for g in games]
    records[2] = records[2].replace("[Rules ", '[PlayTime "42.0"]\n[Rules ', 1)  # its clock
    done = call(page, "POST", "/api/import", {"records": "\n\n".join(records)})
    assert done["imported"] == 3
    page.click("#btn-menu")  # on a phone the statistics are in the menu
    page.locator("#menu-list button", has_text="Statistiques").click()
    page.locator("#stats-body table").wait_for()
    select = page.locator("#stats-rules")
    assert select.is_enabled()
    assert select.locator("option").all_text_contents() == [
        "Classique", "Un seul passage", "Toutes les règles"]
    assert select.input_value() == "classic"

    def finished() -> str:
        return page.locator("#stats-body tr").first.locator("td").text_content() or ""

    assert finished() == "2"
    select.select_option("single-pass")
    page.wait_for_function("() => document.querySelector('#stats-body tr td')?.textContent"
                           " === '1'")
    assert "Meilleur sur cette donne" not in (page.locator("#stats-body").text_content() or "")
    rows = dict(page.evaluate("() => [...document.querySelectorAll('#stats-body tr')]"
                              ".map(r => [r.cells[0].textContent, r.cells[1].textContent])"))
    assert rows["Temps de jeu"] == "0:42" and rows["Victoire la plus rapide"] == "–", rows
    select.select_option("all")
    page.wait_for_function("() => document.querySelector('#stats-body tr td')?.textContent"
                           " === '3'")
    assert page.locator("#dlg-stats").evaluate("d => d.open")
    page.screenshot(path=str(ARTIFACTS / "stats-rules-390.png"))
    page.keyboard.press("Escape")
    assert not page.errors  # type: ignore[attr-defined]
