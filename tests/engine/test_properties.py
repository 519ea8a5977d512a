"""Hypothesis properties: text round trips, invariants, undo/redo, checked play, copies."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from engine_ref import RANK_CODES, SUIT_CODES
from hypothesis import given, settings
from hypothesis import strategies as st
from variants import VARIANT_NAMES

import devilsgrip.notation as notation
from devilsgrip import (
    CardError,
    DeckError,
    Game,
    IllegalMoveError,
    Move,
    MoveError,
    MoveKind,
    PositionError,
    format_moves,
    parse_card,
    parse_deck,
    parse_moves,
)
from devilsgrip.cards import card_code, card_symbol
from devilsgrip.notation import format_deck
from devilsgrip.records import read_record, write_record

CELLS = [c + r for r in "123" for c in "abcdefgh"]
ALL_MOVES: list[Move] = (
    [notation.DEAL, notation.REDEAL]
    + [notation.talon_build(d) for d in range(24)]
    + [notation.grid_build(s, d) for s in range(24) for d in range(24) if s != d]
    + [notation.swap(a, b) for a in range(24) for b in range(a + 1, 24)]
)

FAST = settings(deadline=None, max_examples=100)


def random_game(seed: int, rules: str, steps: int, swaps: float = 0.05) -> Game:
    """A game after ``steps`` random legal moves (builds favoured, some swaps)."""
    rng = random.Random(seed)
    game = Game(seed % 10**6 + 1, rules=rules)
    for _ in range(steps):
        moves = game.generate_moves(swaps=rng.random() < swaps)
        if not moves:
            break
        builds = [m for m in moves if m.kind in (MoveKind.BUILD, MoveKind.TALON)]
        game.play(rng.choice(builds if builds and rng.random() < 0.7 else moves))
    return game


games = st.builds(
    random_game,
    seed=st.integers(0, 2**32),
    rules=st.sampled_from(VARIANT_NAMES),
    steps=st.integers(0, 250),
)

# ------------------------------------------------------------- text round trips
cards = st.integers(0, 47)


@FAST
@given(card=cards, lower=st.booleans(), symbol=st.booleans())
def test_card_text_round_trip(card: int, lower: bool, symbol: bool) -> None:
    text = card_symbol(card) if symbol else card_code(card)
    if lower:
        text = text.lower()
    assert parse_card(text) == card
    assert parse_card(f"  {text} ") == card
    assert card_code(card) == RANK_CODES[card % 12] + SUIT_CODES[card // 12]


def test_card_spellings() -> None:
    assert parse_card("10♠") == parse_card("TS") == parse_card("ts") == parse_card("10s")
    assert card_symbol(parse_card("TS")) == "10♠"
    assert parse_card("qh") == parse_card("Q♥") == parse_card("q♡")
    for bad in ("", "1S", "TX", "11S", "S", "10", "AS", "1♠"):
        try:
            parse_card(bad)
        except CardError as exc:
            assert exc.code == "card-unknown"
        else:
            raise AssertionError(f"{bad!r} was read as a card")


@FAST
@given(move=st.sampled_from(ALL_MOVES), upper=st.booleans())
def test_move_text_round_trip(move: Move, upper: bool) -> None:
    text = move.text()
    assert Move.from_text(text.upper() if upper else text) == move
    assert str(move) == text
    assert repr(move) == f"Move.from_text({text!r})"
    assert hash(Move.from_text(text)) == hash(move)
    if move.kind == MoveKind.SWAP:
        a, b = text.split("=")
        assert Move.from_text(f"{b}={a}") == move  # a swap names its cells in any order


@FAST
@given(moves=st.lists(st.sampled_from(ALL_MOVES), max_size=30),
       seps=st.lists(st.sampled_from([" ", ",", ", ", "  ", "\n", " ,"]), min_size=30,
                     max_size=30))
def test_move_list_round_trip(moves: list[Move], seps: list[str]) -> None:
    assert parse_moves(format_moves(moves)) == moves
    text = "".join(m.text() + seps[i] for i, m in enumerate(moves))
    assert parse_moves(text) == moves


def test_bad_move_text() -> None:
    for bad in ("x", "a1-a1", "a1=a1", "t=c2", "i1-a1", "a4-a1", "a1-", "t-", "dd", "a1+b1"):
        try:
            Move.from_text(bad)
        except MoveError as exc:
            assert exc.code in ("move-bad-text", "cell-unknown", "move-same-cell"), bad
        else:
            raise AssertionError(f"{bad!r} was read as a move")


@FAST
@given(seed=st.integers(1, 2**63 - 1), lower=st.booleans())
def test_deck_string_round_trip(seed: int, lower: bool) -> None:
    game = Game(seed)
    text = format_deck(game.deck or ())
    assert len(text.split()) == 96
    assert format_deck(parse_deck(text.lower() if lower else text)) == text
    assert Game(deck=text).key() == game.key()


@FAST
@given(seed=st.integers(0, 2**32), deck=st.permutations(list(range(48)) * 2))
def test_any_permutation_is_a_deck(seed: int, deck: list[int]) -> None:
    text = format_deck(deck)
    assert parse_deck(text) == deck
    game = Game(deck=text)
    assert [p[0] for p in game.grid] == deck[:24]
    assert game.stock[::-1] == deck[24:]


@FAST
@given(game=games)
def test_position_round_trip(game: Game) -> None:
    text = game.position()
    again = Game.from_position(text)
    assert again.key() == game.key()
    assert again.rules == game.rules
    assert again.position() == text
    assert again.is_over() == game.is_over()
    assert sorted(again.generate_moves(swaps=True), key=str) == sorted(
        game.generate_moves(swaps=True), key=str
    )


@FAST
@given(game=games, give_up=st.booleans())
def test_record_round_trip(game: Game, give_up: bool) -> None:
    if give_up:
        game.give_up()
    text = write_record(game)
    again = read_record(text)
    assert again.key() == game.key()
    assert again.move_stack == game.move_stack
    assert again.status == game.status
    assert write_record(again) == text


# -------------------------------------------------------------------- invariants
def assert_all_cards(game: Game) -> None:
    counts = Counter(c for p in game.grid for c in p) + Counter(game.stock + game.talon)
    assert counts == Counter({c: 2 for c in range(48)})
    assert game.score == 96 - game.grid_cards()
    for pile in game.grid:
        assert len(pile) <= 4
        for a, b in itertools.pairwise(pile):
            assert b == a + 3 and a % 12 < 9 and a // 12 == b // 12


@FAST
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(VARIANT_NAMES))
def test_96_cards_always_accounted_for(seed: int, rules: str) -> None:
    rng = random.Random(seed)
    game = Game(seed + 1, rules=rules)
    for _ in range(150):
        assert_all_cards(game)
        moves = game.generate_moves(swaps=rng.random() < 0.1)
        if not moves:
            break
        game.push(rng.choice(moves))
    assert_all_cards(game)


@FAST
@given(game=games, seed=st.integers(0, 2**32))
def test_pop_restores_exactly(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    for move in rng.sample(game.generate_moves(swaps=True), 20):
        before = (game.position(), game.key(), game.move_stack, write_record(game))
        game.push(move)
        assert game.pop() == move
        assert (game.position(), game.key(), game.move_stack, write_record(game)) == before


@FAST
@given(game=games, k=st.integers(0, 60))
def test_undo_then_redo_replays_the_same(game: Game, k: int) -> None:
    positions = []
    replay = game.copy()
    while replay.can_undo:
        positions.append(replay.position())
        replay.undo()
    positions.append(replay.position())
    positions.reverse()
    # undo k moves, then redo them: the same positions in the same order
    k = min(k, game.moves_played)
    stack = game.move_stack
    for i in range(k):
        assert game.undo() == stack[-1 - i]
        assert game.position() == positions[len(stack) - 1 - i]
    assert len(game.redo_stack) == k
    for i in range(k):
        game.redo()
        assert game.position() == positions[len(stack) - k + i + 1]
    assert game.move_stack == stack
    assert not game.can_redo


def test_play_of_the_next_redo_keeps_the_redo_list() -> None:
    game = Game(4)
    game.play_all_text("d d d")
    game.undo()
    game.undo()
    assert len(game.redo_stack) == 2
    game.play_text("d")  # the move redo would play
    assert len(game.redo_stack) == 1
    other = next(m for m in game.generate_moves() if m.text() != "d")
    game.play(other)
    assert game.redo_stack == []
    assert game.can_undo and not game.can_redo


@FAST
@given(game=games)
def test_reason_agrees_with_generated_moves(game: Game) -> None:
    legal = set(game.generate_moves(swaps=True))
    no_swaps = set(game.generate_moves())
    assert set(game.legal_moves) == legal
    assert set(game.legal_moves_no_swaps) == no_swaps
    assert len(game.legal_moves) == len(legal)
    assert bool(game.legal_moves_no_swaps) == bool(no_swaps)
    for move in ALL_MOVES:
        assert (game.reason(move) is None) == (move in legal), move
        assert (move in game.legal_moves) == (move in legal)
        assert (move in game.legal_moves_no_swaps) == (move in no_swaps)
    assert "d" not in game.legal_moves  # only Move values are members


@FAST
@given(game=games, move=st.sampled_from(ALL_MOVES))
def test_illegal_play_changes_nothing(game: Game, move: Move) -> None:
    problem = game.reason(move)
    if problem is None:
        return
    before = (game.position(), game.move_stack, game.redo_stack, write_record(game))
    for attempt in (move, move.text()):
        try:
            game.play(attempt) if isinstance(attempt, Move) else game.play_text(attempt)
        except IllegalMoveError as exc:
            assert exc.code == problem.code
            assert exc.code and exc.code.replace("-", "").isalpha()
            assert exc.move == move.text()
            assert isinstance(exc, ValueError)
        else:
            raise AssertionError(f"{move} was played")
        assert (game.position(), game.move_stack, game.redo_stack, write_record(game)) == before


def test_same_cell_moves_are_refused() -> None:
    game = Game(1)
    for cell in range(24):
        assert game.reason(notation.swap(cell, cell)) is not None
        assert game.reason(notation.grid_build(cell, cell)) is not None


def test_given_up_game_refuses_moves() -> None:
    game = Game(6)
    game.play_text("d")
    game.give_up()
    before = game.position()
    try:
        game.play_text("d")
    except IllegalMoveError as exc:
        assert exc.code == "game-given-up"
    else:
        raise AssertionError("a given-up game took a move")
    assert game.position() == before
    assert not game.can_undo


@FAST
@given(game=games, seed=st.integers(0, 2**32))
def test_copy_is_independent(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    twin = game.copy()
    before = game.position(), game.move_stack, game.redo_stack
    assert twin.key() == game.key() and twin.move_stack == game.move_stack
    for _ in range(25):
        moves = twin.generate_moves(swaps=True)
        twin.play(rng.choice(moves))
    if twin.can_undo:
        twin.undo()
    twin.tags["X"] = "y"
    assert (game.position(), game.move_stack, game.redo_stack) == before
    assert "X" not in game.tags
    # and the other way round
    mark = twin.position()
    if game.can_undo:
        game.undo()
    game.play(game.generate_moves(swaps=True)[0])
    assert twin.position() == mark


def test_position_errors() -> None:
    good = Game(1).position()
    fields = good.split()
    bad_texts = [
        "x",
        " ".join(fields[:3]),
        good.replace("6D,5H", "6D5H,", 1),  # 6D 5H is not a pile
        good.replace("classic", "nope"),
        " ".join([fields[0], fields[1][2:], *fields[2:]]),  # a card missing
        good.replace(" 0 0 ", " x 0 "),
        good.replace("classic", "single-pass").replace(" - 0 0 ", " - 1 0 "),
    ]
    for text in bad_texts:
        try:
            Game.from_position(text)
        except PositionError as exc:
            assert exc.code.startswith("position-"), text
        else:
            raise AssertionError(f"accepted {text!r}")


def test_deck_error_is_a_value_error() -> None:
    try:
        Game(deck="2S")
    except ValueError as exc:
        assert isinstance(exc, DeckError)


@FAST
@given(game=games)
def test_view_hides_the_unseen_stock_order(game: Game) -> None:
    view = game.view()
    assert view.stock_count == len(game.stock) and view.score == game.score
    assert view.over == game.is_over() and view.won == game.is_won()
    assert list(view.legal) == game.generate_moves()
    if game.redeals_done == 0:
        # nothing of the stock was seen: its cards, sorted, never their order
        assert view.stock_order is None
        assert list(view.unseen) == sorted(game.stock)
    else:
        assert view.stock_order == tuple(reversed(game.stock))


@FAST
@given(game=games)
def test_restart_then_redo_everything(game: Game) -> None:
    end = game.position()
    stack = game.move_stack
    game.restart()
    assert game.position() == game.start_position
    assert game.moves_played == 0 and len(game.redo_stack) == len(stack)
    while game.can_redo:
        game.redo()
    assert game.position() == end and game.move_stack == stack


def test_rng_deals_are_reproducible() -> None:
    a = Game(rng=random.Random(42))
    b = Game(rng=random.Random(42))
    assert a.deck == b.deck and a.number is None
    assert Counter(a.deck or ()) == Counter({c: 2 for c in range(48)})
    try:
        Game(1, rng=random.Random(1))
    except ValueError:
        pass
    else:
        raise AssertionError("a number and an rng were both accepted")


def test_play_all_names_the_bad_move() -> None:
    game = Game(1)
    try:
        game.play_all_text("d d r d")
    except IllegalMoveError as exc:
        assert exc.params["number"] == 3 and exc.params["index"] == 3
        assert exc.code == "stock-not-empty"
    else:
        raise AssertionError("r was played with a full stock")
    assert game.moves_played == 2  # the moves before the bad one stay played
