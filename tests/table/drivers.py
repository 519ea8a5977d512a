"""Drivers that play one game through either screen, for scenarios written once.

A driver plays through the screen's own front door: the web driver sends the
page's HTTP requests (Starlette's TestClient); the terminal driver presses
keys in the Textual app through ``run_test()``'s pilot (moves of a long line
go through the game screen's ``play``, the method its keys call).  Both read
the outcome the same way: the stored games and statistics.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from starlette.testclient import TestClient

from devilsgrip.notation import Move
from devilsgrip.store import Stats, Store


class Driver(Protocol):
    """One screen playing one player's games (see the module documentation)."""

    name: str

    async def play(self, move: str) -> None: ...
    async def undo(self) -> str:
        """Undo; the message the screen shows (a refusal's reason when refused)."""
    async def new_game(self, number: int | None = None) -> None:
        """Leave the game for a new deal, saying yes when the screen asks."""
    async def play_again(self) -> None:
        """Leave the game for a new game of the same deal (restart, play again)."""
    async def give_up(self) -> None: ...
    async def show_solution(self) -> None:
        """Show the best line (the game has ended)."""
    async def daily(self) -> None:
        """Leave the game for today's daily deal of its rules, saying yes when asked."""
    async def share(self) -> str:
        """The text the screen gives to share the game that has ended."""
    async def hide(self) -> None:
        """The game leaves the screen (the page hidden, the terminal game closed)."""
    async def show(self) -> None:
        """The game is back on screen."""
    def state(self) -> dict[str, Any]:
        """``id``, ``number``, ``moves``, ``score``, ``final``, ``over``, ``won``,
        ``can_undo``, ``elapsed``."""
    def stats(self) -> Stats: ...
    def daily_results(self, rules: str) -> dict[str, int]:
        """The player's daily results with ``rules``: the day -> the id of its game."""


def stored_daily_results(db: Path, game_id: int | None, rules: str) -> dict[str, int]:
    """The daily results kept in ``db`` for the owner of game ``game_id``."""
    with Store.open(db) as store:
        owner = next(g.owner for g in store.games() if g.id == game_id)
        return {day: info.id for day, info in store.daily_results(owner, rules).items()}


Scenario = Callable[[Driver], Coroutine[Any, Any, None]]


class WebDriver:
    name = "web"

    def __init__(self, client: TestClient, db: Path) -> None:
        self.client = client
        self.db = db
        self.last: dict[str, Any] = client.get("/api/game").json()

    def _post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        r = self.client.post(path, json=body or {})
        data: dict[str, Any] = r.json()
        if r.status_code == 200 and "view" in data:
            self.last = data
        return data

    async def play(self, move: str) -> None:
        data = self._post("/api/move", {"move": move})
        assert "view" in data, data

    async def undo(self) -> str:
        data = self._post("/api/undo")
        return str(data.get("message") or data.get("announce"))

    async def new_game(self, number: int | None = None) -> None:
        assert "view" in self._post("/api/new", {} if number is None else {"game": number})

    async def play_again(self) -> None:
        assert "view" in self._post("/api/restart")

    async def give_up(self) -> None:
        assert "view" in self._post("/api/giveup")

    async def show_solution(self) -> None:
        r = self.client.post("/api/solution")
        assert r.status_code == 200, r.text
        self.last = self.client.get("/api/game").json()

    async def daily(self) -> None:
        rules = self.last["game"]["rules"]
        data = self._post("/api/daily", {"date": date.today().isoformat(), "rules": rules})
        assert "view" in data, data

    async def share(self) -> str:
        r = self.client.get("/api/share")
        assert r.status_code == 200, r.text
        return str(r.json()["text"])

    async def hide(self) -> None:
        assert self.client.post("/api/clock", json={"running": False}).status_code == 200

    async def show(self) -> None:
        assert self.client.post("/api/clock", json={"running": True}).status_code == 200
        self.last = self.client.get("/api/game").json()

    def state(self) -> dict[str, Any]:
        self.last = self.client.get("/api/game").json()
        v, g = self.last["view"], self.last["game"]
        return {"id": g["id"], "number": g["number"], "moves": v["moves"], "score": v["score"],
                "final": g["final"], "over": v["over"], "won": v["won"],
                "can_undo": self.last["can_undo"], "elapsed": g["elapsed"]}

    def stats(self) -> Stats:
        with Store.open(self.db) as store:
            owners = {g.owner for g in store.games()}
            assert len(owners) <= 1, owners
            return store.stats(owner=next(iter(owners), None))

    def daily_results(self, rules: str) -> dict[str, int]:
        return stored_daily_results(self.db, self.state()["id"], rules)


class TuiDriver:
    name = "tui"

    def __init__(self, app: Any, pilot: Any, db: Path) -> None:
        self.app = app
        self.pilot = pilot
        self.db = db

    @property
    def screen(self) -> Any:
        return self.app.game_screen

    async def _keys(self, *keys: str) -> None:
        for key in keys:
            await self.pilot.press(key)
            await self.pilot.pause()
        await self.pilot.pause()

    async def _close_dialogs(self) -> None:
        from devilsgrip.tui.game_screen import GameScreen

        for _ in range(5):
            if isinstance(self.app.screen, GameScreen):
                return
            await self._keys("escape")
        raise AssertionError(f"a dialog stays open: {self.app.screen}")

    async def play(self, move: str) -> None:
        await self._close_dialogs()
        assert self.screen.play(Move.from_text(move)), self.screen.status
        await self.pilot.pause()

    async def undo(self) -> str:
        await self._close_dialogs()
        await self._keys("u")
        return str(self.screen.status)

    async def _answer_yes(self) -> None:
        from devilsgrip.tui.screens import ConfirmScreen

        if isinstance(self.app.screen, ConfirmScreen):
            await self._keys("y")

    async def new_game(self, number: int | None = None) -> None:
        await self._close_dialogs()
        if number is None:
            await self._keys("n")
        else:
            await self._keys("g", *str(number), "enter")
        await self._answer_yes()

    async def play_again(self) -> None:
        await self._close_dialogs()
        await self._keys("R")
        await self._answer_yes()

    async def give_up(self) -> None:
        await self._close_dialogs()
        await self._keys("G")
        await self._answer_yes()

    async def show_solution(self) -> None:
        from devilsgrip.tui.screens import GameOverScreen

        if not isinstance(self.app.screen, GameOverScreen):
            await self._close_dialogs()
            self.screen.show_game_over()
            await self.pilot.pause()
        await self._keys("b")
        for _ in range(200):  # the best line is worked out in a worker thread
            if self.screen.solution_shown:
                break
            await asyncio.sleep(0.05)
            await self.pilot.pause()
        assert self.screen.solution_shown
        await self._close_dialogs()

    async def daily(self) -> None:
        from devilsgrip.tui.screens import DailyScreen

        await self._close_dialogs()
        await self._keys("D")
        assert isinstance(self.app.screen, DailyScreen)
        await self._keys("enter")
        await self._answer_yes()

    async def share(self) -> str:
        from devilsgrip.tui.screens import ShareScreen

        await self._close_dialogs()
        await self._keys("S")
        assert isinstance(self.app.screen, ShareScreen), self.screen.status
        text = str(self.app.screen.text)
        await self._close_dialogs()
        return text

    async def hide(self) -> None:
        self.screen.session.pause()

    async def show(self) -> None:
        self.screen.session.resume_clock()

    def state(self) -> dict[str, Any]:
        session = self.screen.session
        game = session.game
        return {"id": session.game_id, "number": game.number, "moves": game.moves_played,
                "score": game.score, "final": session.final, "over": game.is_over(),
                "won": game.is_won(), "can_undo": session.can_undo,
                "elapsed": session.elapsed()}

    def stats(self) -> Stats:
        with Store.open(self.db) as store:
            return store.stats(owner="local")

    def daily_results(self, rules: str) -> dict[str, int]:
        return stored_daily_results(self.db, self.state()["id"], rules)


@asynccontextmanager
async def driving(name: str, tmp_path: Path, number: int,
                  rules: str = "classic") -> AsyncIterator[Driver]:
    """A driver of screen ``name`` ("web" or "tui") playing deal ``number`` first."""
    db = tmp_path / f"{name}.sqlite3"
    if name == "web":
        from devilsgrip.web.server import ServerOptions, create_app

        app = create_app(ServerOptions(db=db, game=number, rules=rules,
                                       extra_hosts=("testserver",), hint_time=0.3,
                                       solve_time=3.0))
        with TestClient(app, headers={"origin": "http://testserver"}) as client:
            yield WebDriver(client, db)
        return
    from devilsgrip.tui.app import DevilsGripApp

    store = Store.open(db)
    try:
        tui = DevilsGripApp(store, number=number, rules=rules, flourish_delay=0,
                            dialog_guard=0, hint_time=0.3, solve_time=3.0)
        async with tui.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            yield TuiDriver(tui, pilot, db)
    finally:
        store.close()
