"""What picking up each place means, read once from the state's legal moves, against the drop
policy asked place by place (two ways to the same answers)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devilsgrip import table
from devilsgrip.notation import DEAL, REDEAL
from devilsgrip.session import PlaySession
from devilsgrip.table import PLACES, STOCK, Words
from devilsgrip.table.controller import Picking, picking

WORDS = Words("en")


def by_policy(session: PlaySession) -> Picking:
    """The answers of the drop policy, one place and one drop at a time."""
    game = session.game
    places = [p for p in PLACES if p != STOCK and table.pick_up_refusal(game, p) is None]
    empty = [c for c in range(len(game.grid)) if not game.grid[c]]
    stock = table.stock_move(game)
    return Picking(
        said={p: table.say_picked(game, p, WORDS) for p in places},
        targets={p: table.targets(game, p) for p in places},
        swaps={p: [c for c in empty if c != p and table.drop_refusal(session, p, c) is None]
               for p in places},
        stock=None if table.move_refusal(session, stock) is not None else stock,
    )


def played(seed: int, moves: int, rules: str) -> PlaySession:
    """A session of a random game after up to ``moves`` random legal moves (swaps too)."""
    rng = random.Random(seed)
    session = PlaySession.start(None, number=rng.randint(1, 10**6), rules=rules)
    for _ in range(moves):
        legal = session.game.generate_moves(swaps=True)
        if not legal:
            break
        session.play(rng.choice(legal))
    return session


@settings(max_examples=60)
@given(seed=st.integers(0, 10**9), moves=st.integers(0, 160),
       rules=st.sampled_from(["classic", "single-pass", "literal"]),
       end=st.sampled_from(["play", "give up", "final"]))
def test_picking_is_what_the_policy_says_place_by_place(seed: int, moves: int, rules: str,
                                                        end: str) -> None:
    session = played(seed, moves, rules)
    if end == "give up" and not session.game.is_won():
        session.give_up()
    elif end == "final" and session.game.is_over():
        session.make_final()
    assert picking(session, session.view(), WORDS) == by_policy(session)


@pytest.mark.parametrize("stock", [DEAL, REDEAL, None])
def test_the_stock_click_is_read_from_the_legal_moves(stock: object) -> None:
    session = PlaySession.start(None, number=5, rules="single-pass")
    while session.game.stock:
        session.play(DEAL)
    if stock is DEAL:
        session.undo()
    elif stock is REDEAL:
        session = PlaySession.start(None, number=5)
        while session.game.stock:
            session.play(DEAL)
    assert picking(session, session.view(), WORDS).stock == stock


def test_a_final_game_swaps_nothing_and_a_live_one_swaps_with_its_spaces() -> None:
    rng = random.Random(53)
    session = PlaySession.start(None, number=54, rules="literal")
    while not session.game.is_over():  # random builds and deals, to an over game with a space
        session.play(rng.choice(session.game.generate_moves()))
    assert any(not pile for pile in session.game.grid)
    live = picking(session, session.view(), WORDS)
    assert any(live.swaps.values()) and live == by_policy(session)
    session.make_final()
    final = picking(session, session.view(), WORDS)
    assert not any(final.swaps.values()) and final == by_policy(session)
