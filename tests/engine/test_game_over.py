"""``Game.is_over`` (a closed form) against RULES.md's definition, by brute force.

RULES.md: the game is over when, among all positions reachable by moves
through which no card enters (deals, redeals, swaps, grid builds that fill
nothing), none allows a move through which a card enters (a talon build, or a
grid build whose space is filled).  ``engine_ref.brute_force_over`` explores
exactly that; these tests look for a position where the two disagree:
the ends of many playouts under every variant, positions made by hypothesis
(mostly late ones: few cards outside the grid, redeals used up, card mode),
and hand-made corner cases.
"""

from __future__ import annotations

import random

import pytest
from engine_ref import CHAINS, SUIT_CODES, RefGame, brute_force_over
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from variants import VARIANT_NAMES, VARIANTS, ref_rules

from devilsgrip import Game

Options = tuple[int, int | None, str, bool]


# ---------------------------------------------------------------- playouts
def pushy_playout(seed: int, text: str, options: Options) -> tuple[int, int]:
    """Play to the end favouring moves through which cards enter; compare late.

    Returns (positions compared, positions found over).
    """
    rng = random.Random(seed)
    game = Game(seed, rules=text)
    ref_r = ref_rules(options)
    compared = over = 0
    for _ in range(900):
        late = not game.stock or game.redeals_done > 0 or len(game.stock) <= 6
        if late:
            ref = RefGame.from_position(game.position(), ref_r)
            truth = brute_force_over(ref)
            assert game.is_over() == truth, game.position()
            compared += 1
            over += truth
            if truth:
                break
        moves = game.generate_moves()
        if not moves:
            break
        ref = RefGame.from_position(game.position(), ref_r)
        entering = [m for m in moves if ref.enters(m.text())]
        if entering and rng.random() < 0.9:
            move = rng.choice(entering)
        elif rng.random() < 0.03:
            move = rng.choice(game.generate_moves(swaps=True))
        else:
            move = rng.choice(moves)
        game.play(move)
    return compared, over


@pytest.mark.slow
@pytest.mark.parametrize(("text", "options"), VARIANTS, ids=VARIANT_NAMES)
def test_is_over_at_playout_ends(text: str, options: Options) -> None:
    compared = over = 0
    for seed in (11, 12):
        c, o = pushy_playout(seed, text, options)
        compared += c
        over += o
    assert compared >= 2
    assert over >= 1, "no playout reached its end: the check saw no over position"


@pytest.mark.slow
@pytest.mark.parametrize(("text", "options"), VARIANTS, ids=VARIANT_NAMES)
def test_is_over_at_many_playout_ends(text: str, options: Options) -> None:
    over = 0
    for seed in range(20, 28):
        over += pushy_playout(seed, text, options)[1]
    assert over >= 6


def play_to_the_end(game: Game, rng: random.Random, cap: int = 3000) -> None:
    """Random play that favours moves which lower the score, until ``is_over``."""
    for _ in range(cap):
        if game.is_over():
            return
        moves = game.generate_moves()
        assert moves, "no legal move but the game is not over"
        score = game.score
        better = []
        for move in moves:
            game.push(move)
            if game.score < score:
                better.append(move)
            game.pop()
        if better and rng.random() < 0.9:
            game.play(rng.choice(better))
        else:
            game.play(rng.choice(moves))
    raise AssertionError(f"no end after {cap} moves: {game.position()}")


def test_over_is_a_status_not_a_lock() -> None:
    """Once over, every legal move stays legal, none lets a card in, over stays over."""
    rng = random.Random(3)
    for seed in range(1, 25):
        game = Game(seed, rules=VARIANTS[seed % len(VARIANTS)][0])
        play_to_the_end(game, rng)
        score = game.score
        assert game.generate_moves(swaps=True), "the grid is never empty: swaps stay legal"
        for _ in range(30):
            move = rng.choice(game.generate_moves(swaps=True))
            assert game.reason(move) is None
            game.play(move)
            assert game.is_over()
            assert game.score == score
        game.undo()
        game.redo()
        assert game.is_over()


# ------------------------------------------------- positions from hypothesis
def chain_cards(suit: str, seq: int) -> list[str]:
    return [r + suit for r in CHAINS[seq]]


def late_position(rnd: random.Random, options: Options) -> str:
    """A valid position with few cards outside the grid, as position text.

    Start from a won grid (every sequence of every suit twice, in random
    cells), then break it: take cards from the bottom or the top of piles
    out of the grid, split piles into empty cells, leave some cells empty;
    the cards taken out become the stock and talon in random order.
    """
    piles = [chain_cards(s, q) for s in SUIT_CODES for q in range(3) for _ in range(2)]
    rnd.shuffle(piles)
    outside: list[str] = []
    for _ in range(rnd.randint(1, 14)):
        i = rnd.randrange(24)
        pile = piles[i]
        if not pile:
            continue
        action = rnd.random()
        if action < 0.4:  # take the top card out
            outside.append(pile.pop())
        elif action < 0.75:  # take the bottom card out
            outside.append(pile.pop(0))
        else:  # split the pile into an empty cell
            empty = [j for j in range(24) if not piles[j]]
            if empty and len(pile) > 1:
                cut = rnd.randint(1, len(pile) - 1)
                piles[rnd.choice(empty)] = pile[cut:]
                del pile[cut:]
            else:
                outside.append(pile.pop())
    rnd.shuffle(outside)
    n_talon = rnd.randint(0, len(outside))
    talon, stock_top_first = outside[:n_talon], outside[n_talon:]
    redeals = options[1]
    done = rnd.randint(0, 3) if redeals is None else rnd.randint(0, redeals)
    if rnd.random() < 0.5 and redeals is not None:
        done = redeals  # redeals used up
    rows = [
        ",".join("".join(p) or "-" for p in piles[r * 8 : r * 8 + 8]) for r in range(3)
    ]
    return " ".join(
        ["/".join(rows), "".join(stock_top_first) or "-", "".join(talon) or "-",
         str(done), "0", "RULES"]
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rnd=st.randoms(use_true_random=False), variant=st.sampled_from(VARIANTS))
def test_is_over_on_generated_late_positions(
    rnd: random.Random, variant: tuple[str, Options]
) -> None:
    text, options = variant
    position = late_position(rnd, options).replace("RULES", text)
    game = Game.from_position(position)
    ref = RefGame.from_position(position, ref_rules(options))
    assert game.is_over() == brute_force_over(ref), position


def test_generated_positions_cover_both_answers() -> None:
    """The generator reaches both answers under every variant (the test can fail)."""
    for text, options in VARIANTS:
        rnd = random.Random(text)
        answers = set()
        for _ in range(60):
            game = Game.from_position(late_position(rnd, options).replace("RULES", text))
            answers.add(game.is_over())
        assert answers == {True, False}, text


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(1, 10**6),
    variant=st.sampled_from(VARIANTS),
    steps=st.integers(0, 300),
    data=st.data(),
)
def test_is_over_after_random_play(
    seed: int, variant: tuple[str, Options], steps: int, data: st.DataObject
) -> None:
    """Random play (swaps included), then cut the stock short: compare."""
    text, options = variant
    game = Game(seed, rules=text)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = game.generate_moves(swaps=rng.random() < 0.05)
        if not moves:
            break
        builds = [m for m in moves if m.text() not in ("d", "r")]
        game.push(rng.choice(builds if builds and rng.random() < 0.7 else moves))
    ref = RefGame.from_position(game.position(), ref_rules(options))
    assert game.is_over() == brute_force_over(ref), game.position()


# ----------------------------------------------------------- hand-made cases


def won_grid() -> list[str]:
    """A won grid: jacks' sequences in row 1, queens' in row 2, kings' in row 3."""
    return ["".join(chain_cards(s, q)) for q in range(3) for s in "SSHHDDCC"]


def make_position(cells: dict[str, str], stock: str, talon: str, redeals: int,
                  rules: str) -> str:
    """A won grid with some cells replaced, then stock (top first) and talon (top last)."""
    grid = won_grid()
    for name, pile in cells.items():
        grid[ord(name[0]) - ord("a") + 8 * (int(name[1]) - 1)] = pile
    rows = [",".join(p or "-" for p in grid[r * 8 : r * 8 + 8]) for r in range(3)]
    return f"{'/'.join(rows)} {stock or '-'} {talon or '-'} {redeals} 0 {rules}"


def check(position: str, options: Options, expected: bool) -> None:
    game = Game.from_position(position)
    assert brute_force_over(RefGame.from_position(position, ref_rules(options))) == expected
    assert game.is_over() == expected, position


def test_won_game_is_over() -> None:
    check(make_position({}, "", "", 0, "classic"), (3, None, "run", True), True)


# a1 5S 8S JS, b1 2S 5S, g3 8S JS, h3 2S; both club 4-7-10-K sequences are out
# (nothing can take them).  Card mode: a1's JS needs an 8S top (none), g3's JS
# too: nothing can be emptied.  Run mode: g3's 8S JS goes onto b1's 5S, a1's
# run onto h3's 2S: spaces, filled if there is anything to fill them with.
PEEL = {"a1": "5S8SJS", "b1": "2S5S", "g3": "8SJS", "h3": "2S"}
CLUBS = "4C7CTCKC4C7CTCKC"


@pytest.mark.parametrize(
    ("rules", "options", "expected"),
    [
        ("classic,move_unit=card", (3, None, "card", True), True),
        ("classic", (3, None, "run", True), False),
        ("literal", (3, 0, "card", False), True),
        ("literal,move_unit=run", (3, 0, "run", False), True),  # builds fill nothing
        ("literal,move_unit=run,redeals=1", (3, 1, "run", False), False),  # after a redeal
    ],
)
def test_emptying_builds_depend_on_unit_and_fill(
    rules: str, options: Options, expected: bool
) -> None:
    check(make_position(PEEL, "", CLUBS, 0, rules), options, expected)


# a1 2S 5S 8S waits for a JS; the only JS outside is buried in the talon and
# the club king's sequence of h3 is out with it (nothing takes those cards).
def test_redeal_order_decides_the_end() -> None:
    cells = {"a1": "2S5S8S", "h3": ""}
    talon = "4CJS7CTCKC"  # turned in this order: KC on top
    # a redeal makes 4C the stock's top; three at a time: top 7C, then KC: never JS
    check(make_position(cells, "", talon, 0, "single-pass,redeals=1"),
          (3, 1, "run", True), True)
    check(make_position(cells, "", talon, 0, "classic"), (3, None, "run", True), True)
    # two at a time: 4C JS -> JS on top, it goes onto a1
    check(make_position(cells, "", talon, 0, "single-pass,redeals=1,draw=2"),
          (2, 1, "run", True), False)
    check(make_position(cells, "", talon, 5, "classic,draw=2"), (2, None, "run", True), False)
    # ... unless the redeal is used up
    check(make_position(cells, "", talon, 1, "single-pass,redeals=1,draw=2"),
          (2, 1, "run", True), True)
    # one at a time every card comes on top
    check(make_position(cells, "", talon, 0, "classic,draw=1"), (1, None, "run", True), False)
    # JS still in the stock, in this pass: dealt onto the talon's top
    check(make_position(cells, "JS", "4C7CTCKC", 0, "single-pass"), (3, 0, "run", True), False)
    check(make_position(cells, "7CJS", "4CTCKC", 0, "single-pass"), (3, 0, "run", True), False)
    check(make_position(cells, "7CTCJS", "4CKC", 0, "single-pass"), (3, 0, "run", True), False)
    check(make_position(cells, "7CJSTCKC", "4C", 0, "single-pass"), (3, 0, "run", True), True)
