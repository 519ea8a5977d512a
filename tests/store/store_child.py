"""A child process for the store tests (run as a script, not collected by pytest).

    python store_child.py DB SEED [COUNT]

Starts game number SEED through a PlaySession on DB and plays a deterministic
stream of actions (moves, undo, redo, hints) chosen by
:func:`choose`.  After each action returns it prints ``ack N KIND MOVE`` and
flushes: that action was acknowledged.  Without COUNT it never stops (the test
kills it); with COUNT it stops after COUNT actions and prints ``done``.
"""

from __future__ import annotations

import random
import sys

from devilsgrip.game import Game


def choose(game: Game, rng: random.Random) -> tuple[str, str | None]:
    """The next action for ``game`` (deterministic given the rng's state)."""
    r = rng.random()
    if r < 0.10 and game.can_undo:
        return "undo", None
    if r < 0.17 and game.can_redo:
        return "redo", None
    if r < 0.19:
        moves = game.generate_moves()
        return "hint", moves[0].text() if moves else None
    moves = game.generate_moves(swaps=r > 0.97)
    if not moves or game.is_won():
        return "undo", None
    return "move", rng.choice(moves).text()


def apply(target: object, kind: str, move: str | None) -> None:
    """Do an action on a Game or a PlaySession (same method names; both read text by
    their text door)."""
    if kind == "move":
        target.play_text(move or "")  # type: ignore[attr-defined]
    elif kind == "undo":
        target.undo()  # type: ignore[attr-defined]
    elif kind == "redo":
        target.redo()  # type: ignore[attr-defined]
    elif kind == "hint" and hasattr(target, "record_hint"):
        target.record_hint(move)


def main(argv: list[str]) -> int:
    from devilsgrip.session import PlaySession
    from devilsgrip.store import Store

    db, seed = argv[0], int(argv[1])
    count = int(argv[2]) if len(argv) > 2 else None
    store = Store.open(db)
    session = PlaySession.start(store, number=seed, rules="classic")
    assert session.saving
    print(f"game {session.game_id}", flush=True)
    rng = random.Random(seed)
    n = 0
    while count is None or n < count:
        if session.final:  # a won game takes no more actions
            break
        kind, move = choose(session.game, rng)
        apply(session, kind, move)
        assert session.saving, session.warning
        n += 1
        print(f"ack {n} {kind} {move or '-'}", flush=True)
    print("done", flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
