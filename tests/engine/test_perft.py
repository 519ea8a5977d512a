"""Perft: distinct positions reachable in exactly k moves (swaps excluded).

Golden numbers from deals 1..3, counted by the engine (``push`` on copies,
positions told apart by ``game.key()``) and again by the reference model.
"""

from __future__ import annotations

import pytest
from engine_ref import RefGame, RefRules, perft_positions

from devilsgrip import Game
from devilsgrip.notation import format_deck

GOLDEN: dict[tuple[str, int], list[int]] = {
    ("classic", 1): [1, 11, 121, 1301, 12671, 111337],
    ("classic", 2): [1, 11, 109, 961, 7517, 55685],
    ("classic", 3): [1, 10, 101, 710, 4189, 21719],
    ("literal", 1): [1, 11, 115, 1126, 9554, 70095],
    ("literal", 2): [1, 11, 106, 892, 6583, 45755],
    ("literal", 3): [1, 10, 93, 610, 3248, 15699],
}
FAST_DEPTH = 4

REF_RULES = {
    "classic": RefRules(draw=3, redeals=None, run=True, fill_from_talon=True),
    "literal": RefRules(draw=3, redeals=0, run=False, fill_from_talon=False),
}


def engine_perft(game: Game, depth: int) -> list[int]:
    layer = {game.key(): game}
    counts = [len(layer)]
    for _ in range(depth):
        nxt: dict[object, Game] = {}
        for g in layer.values():
            for move in g.generate_moves():
                h = g.copy()
                h.push(move)
                nxt.setdefault(h.key(), h)
        layer = nxt  # type: ignore[assignment]
        counts.append(len(layer))
    return counts


def engine_perft_by_push_pop(game: Game, depth: int) -> list[int]:
    """The same count walking one game with push/pop (checks that pop undoes exactly)."""
    layers: list[set[object]] = [set() for _ in range(depth + 1)]
    start = game.position()

    def walk(k: int) -> None:
        layers[k].add(game.key())
        if k == depth:
            return
        for move in game.generate_moves():
            game.push(move)
            walk(k + 1)
            assert game.pop() == move

    walk(0)
    assert game.position() == start
    return [len(layer) for layer in layers]


@pytest.mark.parametrize(("rules", "number"), sorted(GOLDEN))
def test_perft_engine(rules: str, number: int) -> None:
    expected = GOLDEN[rules, number][: FAST_DEPTH + 1]
    assert engine_perft(Game(number, rules=rules), FAST_DEPTH) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "number"), sorted(GOLDEN))
def test_perft_reference(rules: str, number: int) -> None:
    depth = FAST_DEPTH if number == 3 else FAST_DEPTH - 1
    deck = format_deck(Game(number).deck or ()).split()
    ref = RefGame.from_deck(deck, REF_RULES[rules])
    assert perft_positions(ref, depth) == GOLDEN[rules, number][: depth + 1]


def test_perft_push_pop() -> None:
    assert engine_perft_by_push_pop(Game(3, rules="classic"), 3) == GOLDEN["classic", 3][:4]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "number"), sorted(GOLDEN))
def test_perft_deep(rules: str, number: int) -> None:
    depth = len(GOLDEN[rules, number]) - 1
    assert engine_perft(Game(number, rules=rules), depth) == GOLDEN[rules, number]
    deck = format_deck(Game(number).deck or ()).split()
    ref = RefGame.from_deck(deck, REF_RULES[rules])
    assert perft_positions(ref, FAST_DEPTH) == GOLDEN[rules, number][: FAST_DEPTH + 1]
