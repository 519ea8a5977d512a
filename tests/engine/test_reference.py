"""The engine against the independent reference model, along random playouts.

At every step, under every preset and option variant: the same legal moves
(with and without swaps), the same position after the move, and the same
answer to "is the game over?" (the reference decides it by brute force).
"""

from __future__ import annotations

import random

import pytest
from engine_ref import RANK_CODES, SUIT_CODES, RefGame, brute_force_over
from variants import PRESETS_QUICK, VARIANT_NAMES, VARIANTS, ref_rules

from devilsgrip import Game, Move, Rules
from devilsgrip.notation import format_deck


def code(card: int) -> str:
    # the card numbering is a documented contract (docs/ARCHITECTURE.md)
    return RANK_CODES[card % 12] + SUIT_CODES[card // 12]


def engine_state(game: Game) -> tuple[object, ...]:
    return (
        tuple(tuple(code(c) for c in pile) for pile in game.grid),
        tuple(code(c) for c in game.stock),
        tuple(code(c) for c in game.talon),
        game.redeals_done,
    )


@pytest.mark.parametrize(("text", "options"), VARIANTS, ids=VARIANT_NAMES)
def test_rules_text_gives_the_documented_options(
    text: str, options: tuple[int, int | None, str, bool]
) -> None:
    rules = Rules.parse(text)
    assert (rules.draw, rules.redeals, rules.move_unit, rules.fill_from_talon) == options
    assert Rules.parse(str(rules)) == rules


def playout_compare(seed: int, text: str, options: tuple[int, int | None, str, bool],
                    steps: int, check_over: bool) -> int:
    rng = random.Random(seed)
    game = Game(seed, rules=text)
    ref = RefGame.from_deck(format_deck(game.deck or ()).split(), ref_rules(options))
    assert engine_state(game) == ref.state()
    played = 0
    for _ in range(steps):
        engine_moves = [m.text() for m in game.generate_moves()]
        assert len(engine_moves) == len(set(engine_moves))
        assert sorted(engine_moves) == sorted(ref.moves(swaps=False)), game.position()
        with_swaps = sorted(m.text() for m in game.generate_moves(swaps=True))
        assert with_swaps == sorted(ref.moves(swaps=True))
        assert sorted(m.text() for m in game.legal_moves) == with_swaps
        if check_over:
            assert game.is_over() == brute_force_over(ref), game.position()
        if not engine_moves:
            break
        if rng.random() < 0.05:
            choice = rng.choice(with_swaps)
        else:
            # favour builds so that playouts reach late positions
            builds = [m for m in engine_moves if m not in ("d", "r")]
            choice = rng.choice(builds if builds and rng.random() < 0.8 else engine_moves)
        game.play_text(choice)
        ref.apply(choice)
        played += 1
        assert engine_state(game) == ref.state(), (seed, text, ref.history)
        assert RefGame.from_position(game.position(), ref.rules).state() == ref.state()
    return played


@pytest.mark.parametrize(("text", "options"), PRESETS_QUICK)
def test_playouts_agree_with_reference(
    text: str, options: tuple[int, int | None, str, bool]
) -> None:
    total = 0
    for seed in range(1, 4):
        total += playout_compare(seed, text, options, steps=120, check_over=False)
    assert total > 100


@pytest.mark.parametrize(("text", "options"), PRESETS_QUICK)
def test_is_over_agrees_with_brute_force_along_playouts(
    text: str, options: tuple[int, int | None, str, bool]
) -> None:
    playout_compare(7, text, options, steps=150, check_over=True)


@pytest.mark.slow
@pytest.mark.parametrize(("text", "options"), VARIANTS, ids=VARIANT_NAMES)
def test_long_playouts_agree_with_reference(
    text: str, options: tuple[int, int | None, str, bool]
) -> None:
    for seed in range(100, 105):
        playout_compare(seed, text, options, steps=400, check_over=True)


def test_reference_model_can_disagree() -> None:
    """The comparison is not vacuous: a wrong rule in the model is caught."""
    game = Game(3)
    ref = RefGame.from_deck(format_deck(game.deck or ()).split(), ref_rules(VARIANTS[0][1]))
    ref.rules.draw = 1
    game.play_text("d")
    ref.apply("d")
    assert engine_state(game) != ref.state()


def test_moves_are_values() -> None:
    game = Game(5)
    for move in game.generate_moves(swaps=True):
        assert Move.from_text(move.text()) == move
        assert eval(repr(move), {"Move": Move}) == move
