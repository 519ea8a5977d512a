"""Every edge case RULES.md names, on hand-made positions."""

from __future__ import annotations

import random

import pytest
from engine_ref import CHAINS
from hypothesis import given, settings
from hypothesis import strategies as st

from devilsgrip import Game, IllegalMoveError, Move, MoveError, Rating, Status, parse_card
from devilsgrip.notation import format_cards
from devilsgrip.records import write_record


def won_grid() -> list[str]:
    """Jacks' sequences on row 1, queens' on row 2, kings' on row 3 (spades twice first)."""
    return ["".join(r + s for r in CHAINS[q]) for q in range(3) for s in "SSHHDDCC"]


def pos(cells: dict[str, str], stock: str = "", talon: str = "", redeals: int = 0,
        rules: str = "classic") -> Game:
    """A won grid with some cells replaced; stock from its top, talon top last."""
    grid = won_grid()
    for name, pile in cells.items():
        grid[ord(name[0]) - ord("a") + 8 * (int(name[1]) - 1)] = pile
    rows = "/".join(",".join(p or "-" for p in grid[r * 8 : r * 8 + 8]) for r in range(3))
    return Game.from_position(f"{rows} {stock or '-'} {talon or '-'} {redeals} 0 {rules}")


def pile(game: Game, cell: str) -> str:
    return format_cards(game.grid[ord(cell[0]) - ord("a") + 8 * (int(cell[1]) - 1)])


def texts(moves: list[Move]) -> set[str]:
    return {m.text() for m in moves}


def refused(game: Game, move: str) -> str:
    before = game.position()
    with pytest.raises(IllegalMoveError) as info:
        game.play_text(move)
    assert game.position() == before
    return info.value.code


# ------------------------------------------------------------------- dealing
def test_deal_turns_three_one_by_one() -> None:
    game = Game(1)
    deck = list(game.deck or ())
    game.play_text("d")
    assert game.talon == deck[24:27]  # the 25th first; the last turned is on top
    assert game.talon[-1] == deck[26]
    assert len(game.stock) == 69
    game.play_text("d")
    assert game.talon == deck[24:30]


@pytest.mark.parametrize(("stock", "turned"), [("4C", 1), ("4C7C", 2), ("4C7CTC", 3)])
def test_last_stock_cards(stock: str, turned: int) -> None:
    rest = "4C7CTCKC"[len(stock):]
    game = pos({"h3": ""}, stock=stock, talon=rest, rules="single-pass")
    game.play_text("d")
    assert game.stock == []
    assert format_cards(game.talon) == rest + stock  # turned in order, the last on top
    assert len(game.talon) == 4
    assert texts(game.generate_moves()) == set()  # no redeal in single-pass, nothing fits
    assert refused(game, "d") == "stock-empty"
    assert refused(game, "r") == "no-redeals-left"
    game.undo()
    assert format_cards(reversed(game.stock)) == stock


def test_draw_one_and_draw_larger_than_stock() -> None:
    game = pos({"h3": ""}, stock="4C7CTCKC", rules="classic,draw=1")
    game.play_text("d")
    assert format_cards(game.talon) == "4C"
    game = pos({"h3": ""}, stock="4C7CTCKC", rules="classic,draw=10")
    game.play_text("d")
    assert format_cards(game.talon) == "4C7CTCKC" and not game.stock


# ------------------------------------------------------------------ redealing
def test_redeal_turns_the_talon_over_as_it_lies() -> None:
    game = pos({"g3": "", "h3": ""}, talon="4C7CTCKCKCTC7C4C", rules="single-pass,redeals=2")
    assert refused(game, "d") == "stock-empty"
    game.play_text("r")
    assert game.talon == []
    # the first card turned becomes the top of the stock: the order is kept
    assert game.position().split()[1] == "4C7CTCKCKCTC7C4C"
    assert game.redeals_done == 1
    game.play_text("d")
    assert format_cards(game.talon) == "4C7CTC"
    assert refused(game, "r") == "stock-not-empty"
    for _ in range(2):
        game.play_text("d")
    game.play_text("r")
    assert game.position().split()[1] == "4C7CTCKCKCTC7C4C"
    game.play_all_text("d d d")
    assert refused(game, "r") == "no-redeals-left"
    game.undo()
    game.undo()
    game.undo()
    game.undo()
    assert game.redeals_done == 1 and not game.stock
    assert format_cards(game.talon) == "4C7CTCKCKCTC7C4C"


def test_redeal_needs_a_talon() -> None:
    game = pos({})
    assert game.is_won() and game.is_over()
    assert refused(game, "r") == "talon-empty"
    assert refused(game, "d") == "stock-empty"
    assert refused(game, "t-a1") == "talon-empty"


def test_unlimited_redeals_and_their_end() -> None:
    # a1 waits for a JS that never comes on top: the game ends although redeals go on
    game = pos({"a1": "2S5S8S", "h3": ""}, talon="JS4C7CTCKC", rules="classic")
    assert game.is_over()
    assert texts(game.generate_moves()) == {"r", "b1-a1"}  # b1's JS: it fills nothing
    for _ in range(5):
        game.play_text("r")
        game.play_all_text("d d")
        assert game.is_over()
    assert game.redeals_done == 5
    game = pos({"a1": "2S5S8S", "h3": ""}, talon="4CJS7CTCKC", rules="classic")
    assert game.is_over()  # three at a time: 4C JS 7C, then TC KC: JS is never on top
    game.play_all_text("r d")
    assert format_cards(game.talon) == "4CJS7C"
    game = pos({"a1": "2S5S8S", "h3": ""}, talon="4C7CJSTCKC", rules="classic")
    assert not game.is_over()
    game.play_all_text("r d")
    assert game.talon[-1] == parse_card("JS")
    game.play_text("t-a1")
    assert pile(game, "a1") == "2S5S8SJS"


# --------------------------------------------------------------------- spaces
def test_space_filled_from_the_stock_inside_the_move() -> None:
    for rules in ("classic", "literal"):
        game = pos({"a1": "2S5S8S", "h3": "JS"}, stock="KC", talon="4C7CTC", rules=rules)
        game.play_text("h3-a1")
        assert pile(game, "a1") == "2S5S8SJS"
        assert pile(game, "h3") == "KC"
        assert game.stock == [] and format_cards(game.talon) == "4C7CTC"
        assert game.moves_played == 1
        game.undo()  # one undo step takes back the build and the fill
        assert pile(game, "h3") == "JS" and format_cards(game.stock) == "KC"


def test_space_after_the_stock_runs_out() -> None:
    classic = pos({"a1": "2S5S8S", "h3": "JS"}, talon="4C7CTCKC", rules="classic")
    classic.play_text("h3-a1")
    assert pile(classic, "h3") == "KC"  # from the talon's top
    assert format_cards(classic.talon) == "4C7CTC"
    literal = pos({"a1": "2S5S8S", "h3": "JS"}, talon="4C7CTCKC", rules="literal")
    literal.play_text("h3-a1")
    assert pile(literal, "h3") == "-"  # left empty
    assert format_cards(literal.talon) == "4C7CTCKC"
    # nothing is ever played into a space but a pile by a swap
    literal_talon = pos({"a1": "2S5S8S", "h3": "JS", "g3": "4C7CTC"}, talon="4C7CTCKCKC",
                        rules="literal")
    literal_talon.play_text("h3-a1")
    assert refused(literal_talon, "g3-h3") == "target-empty"
    assert refused(literal_talon, "t-h3") == "target-empty"
    literal_talon.play_text("g3=h3")
    assert pile(literal_talon, "h3") == "4C7CTC" and pile(literal_talon, "g3") == "-"
    literal_talon.play_text("t-h3")
    assert pile(literal_talon, "h3") == "4C7CTCKC"
    assert literal_talon.score == 4 and literal_talon.is_over()


# ------------------------------------------------------------ builds and runs
RUNS = {"a1": "2S5S", "b1": "2S", "g3": "8SJS", "h3": "5S8SJS"}


def test_runs_onto_a_lone_base() -> None:
    game = pos(RUNS, stock="4C7CTCKC", talon="4C7CTCKC", rules="classic")
    assert texts(game.generate_moves()) == {"d", "a1-b1", "h3-a1", "g3-a1", "h3-b1"}
    game.play_text("h3-b1")  # the whole run onto the lone 2S; the stock fills h3
    assert pile(game, "b1") == "2S5S8SJS" and pile(game, "h3") == "4C"
    game.undo()
    game.play_text("h3-a1")  # the run above h3's 5S: h3 keeps its 5S, nothing is filled
    assert pile(game, "a1") == "2S5S8SJS" and pile(game, "h3") == "5S"
    assert len(game.stock) == 4


def test_card_mode_moves_only_the_top_card() -> None:
    game = pos(RUNS, stock="4C7CTCKC", talon="4C7CTCKC", rules="literal")
    assert texts(game.generate_moves()) == {"d", "a1-b1"}
    assert refused(game, "h3-b1") == "wrong-rank"
    assert refused(game, "g3-a1") == "wrong-rank"
    game.play_text("a1-b1")
    assert pile(game, "a1") == "2S" and pile(game, "b1") == "2S5S"
    game = pos(RUNS, stock="4C7CTCKC", talon="4C7CTCKC", rules="literal,move_unit=run")
    assert "h3-b1" in texts(game.generate_moves())


def test_four_card_limit() -> None:
    game = pos({"h3": ""}, talon="4C7CTCKC")
    # every pile is complete (J, Q or K on top): nothing fits anywhere
    assert texts(game.generate_moves()) == {"r"}
    assert refused(game, "t-a1") == "target-complete"
    assert refused(game, "a2-a1") in ("target-complete", "no-card-fits")
    assert all(len(p) <= 4 for p in game.grid)


def test_bases_only_enter_by_fills() -> None:
    game = pos({"h3": "", "a1": "5S8SJS", "b1": "2S5S8SJS"}, talon="4C7CTCKC2S")
    # the talon's 2S could go under a1's 5S, but nothing goes under a card
    assert refused(game, "t-a1") == "card-is-base"
    game = pos({"h3": "4C", "a1": "5S8SJS"}, talon="7CTCKC2S", rules="classic")
    assert "h3-a1" not in texts(game.generate_moves())
    # a1's run goes onto nothing (2S is in the talon): no build; the base stays in the talon
    assert all(m.kind.name != "TALON" for m in game.generate_moves())


def test_talon_build() -> None:
    game = pos({"h3": "4C7CTC"}, talon="KC")
    # g3's KC may also go there as a run (a build that empties nothing)
    assert texts(game.generate_moves()) == {"r", "t-h3", "g3-h3"}
    game.play_text("t-h3")
    assert game.is_won() and game.score == 0 and game.status == Status.WON


# -------------------------------------------------------------------- swaps
def test_swaps() -> None:
    game = pos({"g3": "", "h3": ""}, talon="4C7CTCKC4C7CTCKC", rules="literal")
    assert refused(game, "g3=h3") == "swap-both-empty"
    swaps = [m for m in game.generate_moves(swaps=True) if m.is_swap]
    assert len(swaps) == 276 - 1  # every pair of cells but the two spaces
    score = game.score
    game.play_text("a1=h3")
    assert pile(game, "a1") == "-" and pile(game, "h3") == "2S5S8SJS"
    game.play_text("a2=b3")
    assert pile(game, "a2") == "4S7STSKS" and pile(game, "b3") == "3S6S9SQS"
    assert game.score == score
    assert game.is_over()  # swaps never let a card in
    with pytest.raises(Exception) as info:
        Move.from_text("a1=a1")
    assert getattr(info.value, "code", "") == "move-same-cell"


# ------------------------------------------------------- score, won, arrange
@pytest.mark.parametrize(
    ("score", "rating"),
    [(0, Rating.WON), (1, Rating.BRILLIANT), (2, Rating.BRILLIANT), (3, Rating.EXCELLENT),
     (5, Rating.EXCELLENT), (6, Rating.GOOD), (10, Rating.GOOD), (11, Rating.NONE),
     (72, Rating.NONE)],
)
def test_rating(score: int, rating: Rating) -> None:
    assert Rating.of(score) == rating


def check_arrangement(game: Game) -> None:
    assert game.is_won()
    moves = game.arrangement()
    for move in moves:
        assert move.is_swap
        game.play(move)
    for cell, p in enumerate(game.grid):
        assert len(p) == 4
        assert "JQK"[cell // 8] == format_cards(p)[-2]
    assert game.arrangement() == [m for m in game.arrangement()]
    assert len(moves) <= 24


@settings(deadline=None, max_examples=60)
@given(order=st.permutations(list(range(24))))
def test_won_arrangement(order: list[int]) -> None:
    piles = won_grid()
    cells = {"abcdefgh"[i % 8] + str(i // 8 + 1): piles[order[i]] for i in range(24)}
    check_arrangement(pos(cells))


def test_arrangement_of_a_sorted_grid_is_empty_and_unwon_gives_none() -> None:
    assert pos({}).arrangement() == []
    rng = random.Random(1)
    piles = won_grid()
    rng.shuffle(piles)
    cells = {"abcdefgh"[i % 8] + str(i // 8 + 1): piles[i] for i in range(24)}
    shuffled = pos(cells)
    assert shuffled.arrangement()
    check_arrangement(shuffled)
    assert Game(1).arrangement() == []
    assert pos({"h3": "4C7CTC"}, talon="KC").arrangement() == []


def test_give_up_counts_the_score() -> None:
    game = Game(8)
    game.play_text("d")
    game.give_up()
    assert game.status == Status.GIVEN_UP
    assert game.score == 72
    assert "{given up, score 72}" in write_record(game)


def test_play_takes_a_move_and_text_has_its_own_door() -> None:
    game = Game(1)
    start = game.position()
    with pytest.raises(TypeError, match="play_text"):
        game.play("d")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        game.preview("d")  # type: ignore[arg-type]
    assert game.position() == start and game.moves_played == 0
    with pytest.raises(MoveError) as unreadable:
        game.play_text("a1~c2")
    assert unreadable.value.code == "move-bad-text" and game.position() == start
    assert game.play_text(" D ") == Move.from_text("d") == game.move_stack[-1]


def test_play_all_text_numbers_the_bad_move_and_keeps_those_before() -> None:
    game = Game(1)
    with pytest.raises(MoveError) as unreadable:
        game.play_all_text("1. d 2. d, x9")
    assert unreadable.value.params["index"] == 3 and unreadable.value.params["number"] == 3
    assert [m.text() for m in game.move_stack] == ["d", "d"]
    with pytest.raises(IllegalMoveError) as illegal:
        game.play_all_text("d t-a1")
    assert illegal.value.params["index"] == 2 and game.moves_played == 3
    assert game.play_all([Move.from_text("d")]) == [Move.from_text("d")]
