"""What a move did, as the engine tells it (MoveEffect), and the engine's edges."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devilsgrip.cards import N_CARDS
from devilsgrip.errors import DeckError, IllegalMoveError
from devilsgrip.game import Game, Source
from devilsgrip.notation import DEAL, Move, MoveKind


def test_a_deal_tells_the_cards_turned_in_order() -> None:
    game = Game(5)
    assert game.last_effect() is None
    stock_top = game.stock[-3:][::-1]
    game.play(DEAL)
    effect = game.last_effect()
    assert effect is not None and effect.move == DEAL
    assert list(effect.cards) == stock_top and effect.cards[-1] == game.talon[-1]


def test_a_build_that_empties_its_cell_tells_the_card_that_fills_it() -> None:
    game = Game(5)
    build = next(m for m in game.generate_moves() if m.kind == MoveKind.BUILD)
    moving = game.grid[build.src][-1]
    onto = game.grid[build.dst][-1]
    next_stock = game.stock[-1]
    preview = game.preview(build)
    assert game.moves_played == 0  # a preview plays nothing
    game.play(build)
    effect = game.last_effect()
    assert effect == preview
    assert effect.cards == (moving,) and effect.onto == onto
    assert effect.emptied and effect.fill == next_stock and effect.fill_from == Source.STOCK


def test_a_literal_build_moves_one_card() -> None:
    game = Game(7, rules="literal")
    for _ in range(200):
        builds = [m for m in game.generate_moves() if m.kind == MoveKind.BUILD]
        if builds:
            move = builds[0]
            before = game.grid[move.src]
            game.play(move)
            effect = game.last_effect()
            assert effect is not None
            assert effect.cards == (before[-1],)  # one card in literal
            assert effect.emptied == (len(before) == 1)
            return
        game.play(game.generate_moves()[0])
    raise AssertionError("no build found")


def test_a_swap_tells_both_piles() -> None:
    game = Game(5)
    game.play_text("a1=b1")
    effect = game.last_effect()
    assert effect is not None and effect.piles == (game.grid[0], game.grid[1])
    assert effect.cards == () and effect.fill is None


def test_a_swap_is_the_same_move_whichever_cell_comes_first() -> None:
    assert Move(MoveKind.SWAP, 5, 2) == Move.from_text("c1=f1") == Move.from_text("f1=c1")
    assert Move(MoveKind.SWAP, 5, 2).text() == "c1=f1"
    assert hash(Move(MoveKind.SWAP, 5, 2)) == hash(Move.from_text("c1=f1"))
    assert Move(MoveKind.BUILD, 5, 2) != Move(MoveKind.BUILD, 2, 5)


@pytest.mark.parametrize("deck", [[99] * 96, [-1] * 96, ["2S"] * 96, [True] * 96])
def test_a_deck_of_non_cards_is_a_deck_error(deck: list[object]) -> None:
    with pytest.raises(DeckError) as info:
        Game(deck=deck)  # type: ignore[arg-type]
    assert info.value.code == "deck-unknown-card"


def test_a_deck_of_card_ints_still_deals() -> None:
    cards = list(Game(3).deck or ())
    assert Game(deck=cards).position() == Game(3).position()
    assert all(0 <= c < N_CARDS for c in cards)


def test_a_won_game_cannot_be_given_up_and_a_given_up_game_has_no_moves() -> None:
    game = Game(2)
    game.give_up()
    assert game.generate_moves(swaps=True) == [] and not game.legal_moves
    assert len(game.legal_moves) == 0 and DEAL not in game.legal_moves
    problem = game.reason(DEAL)
    assert problem is not None and problem.code == "game-given-up"
    with pytest.raises(IllegalMoveError):
        game.play(DEAL)
    from devilsgrip.solver import solve

    won = Game(2)
    won.play_all(list(solve(won, time_limit=10).moves))
    assert won.is_won()
    with pytest.raises(IllegalMoveError) as info:
        won.give_up()
    assert info.value.code == "game-won" and not won.given_up


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10_000), st.sampled_from(["classic", "single-pass", "literal"]),
       st.integers(0, 2**32 - 1))
def test_every_effect_matches_what_changed(number: int, rules: str, seed: int) -> None:
    """The effect is told from the undo data: it agrees with the state before and after."""
    game = Game(number, rules=rules)
    rng = random.Random(seed)
    for _ in range(60):
        moves = game.generate_moves(swaps=rng.random() < 0.1)
        if not moves:
            break
        move = rng.choice(moves)
        before = game.copy()
        preview = game.preview(move)
        assert game.preview(move, checked=False) == preview  # a legal move: the same
        assert game.position() == before.position()  # and the game unchanged
        game.play(move)
        effect = game.last_effect()
        assert effect == preview and effect is not None and effect.move == move
        if move.kind == MoveKind.DEAL:
            assert list(effect.cards) == game.talon[len(before.talon):]
        elif move.kind == MoveKind.TALON:
            assert effect.cards == (before.talon[-1],)
            assert effect.onto == before.grid[move.dst][-1]
        elif move.kind == MoveKind.BUILD:
            source = before.grid[move.src]
            n = len(effect.cards)
            assert tuple(source[len(source) - n:]) == effect.cards
            assert game.grid[move.dst] == before.grid[move.dst] + effect.cards
            assert effect.emptied == (n == len(source))
            if effect.fill is not None:
                assert game.grid[move.src] == (effect.fill,)
                pool = before.stock if effect.fill_from == Source.STOCK else before.talon
                assert pool[-1] == effect.fill
            elif effect.emptied:
                assert game.grid[move.src] == ()
        elif move.kind == MoveKind.SWAP:
            assert effect.piles == (before.grid[move.dst], before.grid[move.src])
