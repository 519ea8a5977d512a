"""The win search, its relaxation, its loss certificates and the bound of every solve."""

from __future__ import annotations

import json
import random
import re
from unittest.mock import patch

import pytest
from helpers import brute_force, late_position, replay_score, split_position
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from devilsgrip.cards import LEVEL_OF
from devilsgrip.cli import main
from devilsgrip.game import Game
from devilsgrip.i18n import set_language
from devilsgrip.notation import parse_cards
from devilsgrip.rules import Rules
from devilsgrip.solver.bounds import NEVER, _fills_keep_pace, bases_unmatched, talon_bottom_lost
from devilsgrip.solver.clairvoyant import new_search
from devilsgrip.solver.portfolio import solve
from devilsgrip.solver.winnable import (
    BASE_ON_TALON,
    BASES_UNMATCHED,
    LOST,
    RELAXATION_LOST,
    TALON_BOTTOM,
    UNDER_STUCK_CARD,
    UNKNOWN,
    WON,
    LossCertificate,
    Relaxation,
    _no_pile_for_every_base,
    _relaxation_has_no_win,
    _stock_fills_possible,
    check_certificate,
    find_certificate,
    new_win_search,
    prove_winnable,
    root_certificate,
)

ONE_PASS = [
    "single-pass",
    "literal",
    "single-pass,move_unit=card",
    "literal,move_unit=run",
    "single-pass,fill_from_talon=false",
    "literal,fill_from_talon=true",
    "single-pass,draw=1",
    "literal,draw=2",
]
"""Every combination of the one-pass options, and other draws."""

FILLS_FROM_TALON = [r for r in ONE_PASS if Rules.parse(r).fill_from_talon]

small = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def optimum(game: Game) -> int | None:
    try:
        return brute_force(game, limit=150_000)
    except RuntimeError:
        return None


@small
@given(seed=st.integers(0, 10**6), outside=st.integers(2, 9), rules=st.sampled_from(ONE_PASS),
       relax=st.sampled_from([0, 300]))
def test_win_search_agrees_with_exhaustive_search(
    seed: int, outside: int, rules: str, relax: int
) -> None:
    game = late_position(seed, outside, rules)
    best = optimum(game)
    if best is None:
        return
    search = new_win_search(game, time_limit=None, max_nodes=500_000, relax_nodes=relax)
    found = search.prove()
    assert found is not None
    assert found == (best == 0)
    result = prove_winnable(game, time_limit=None, max_nodes=500_000)
    assert result.outcome == (WON if best == 0 else LOST)
    if result.outcome == WON:
        check = game.copy()
        for move in result.moves:
            check.play(move)
        assert check.score == 0


@small
@given(seed=st.integers(0, 10**6), outside=st.integers(2, 9), rules=st.sampled_from(ONE_PASS))
def test_relaxation_never_loses_a_winnable_position(seed: int, outside: int, rules: str) -> None:
    game = late_position(seed, outside, rules)
    verdict = Relaxation.of_game(game).winnable(None)
    assert verdict is not None
    if verdict is False:
        best = optimum(game)
        assert best is None or best >= 1


@small
@given(seed=st.integers(0, 10**6), outside=st.integers(2, 10), rules=st.sampled_from(ONE_PASS))
def test_relaxation_search_agrees_with_plain_enumeration(
    seed: int, outside: int, rules: str
) -> None:
    # the greedy talon builds and the counted bottoms lose nothing of the relaxation
    game = late_position(seed, outside, rules)
    verdict = Relaxation.of_game(game).winnable(None)
    assert verdict == (not _relaxation_has_no_win(game, 10**7))


def test_relaxation_proves_some_deals_lost() -> None:
    lost = [n for n in range(1, 11)
            if Relaxation.of_game(Game(n, rules="literal")).winnable() is False]
    assert lost  # deals 5 and 8 when this was written
    assert check_certificate(Game(lost[0], rules="literal"), LossCertificate(RELAXATION_LOST))


@small
@given(seed=st.integers(0, 10**6), outside=st.integers(2, 9), rules=st.sampled_from(ONE_PASS))
@example(seed=206, outside=4, rules="literal")  # two copies of the stuck base on the talon
def test_certificates_are_rechecked_and_sound(seed: int, outside: int, rules: str) -> None:
    game = late_position(seed, outside, rules)
    cert = root_certificate(game, max_nodes=None)
    if cert is None:
        return
    assert check_certificate(game, cert)
    best = optimum(game)
    assert best is None or best >= 1
    if cert.card >= 0:
        # the named card can never enter: every line leaves it out
        result = solve(game, time_limit=None, max_nodes=50_000)
        check = game.copy()
        for move in result.moves:
            check.play(move)
        assert cert.card in check.talon or cert.card in check.stock


def _talon_with_stuck_card() -> list[Game]:
    found = []
    for seed in range(400):
        game = late_position(seed, 8, "literal")
        if len(game.talon) >= 2 and not LEVEL_OF[game.talon[-1]]:
            found.append(game)
    return found


def test_a_base_on_the_talon_is_certified() -> None:
    games = _talon_with_stuck_card()
    assert games
    for game in games:
        cert = find_certificate(game)
        assert cert is not None and cert.reason in (BASE_ON_TALON, UNDER_STUCK_CARD)
        assert check_certificate(game, cert)
        # the card under the base can never enter either
        under = LossCertificate(UNDER_STUCK_CARD, card=game.talon[0], blocker=game.talon[-1])
        assert check_certificate(game, under)
    # a copy of the blocker itself under it (two decks): that copy can never enter either
    doubled = next(g for g in games if g.talon.count(g.talon[-1]) >= 2)
    base = doubled.talon[-1]
    assert check_certificate(doubled, LossCertificate(UNDER_STUCK_CARD, card=base, blocker=base))


def test_wrong_certificates_are_refused() -> None:
    games = _talon_with_stuck_card()
    game = games[0]
    base = game.talon[-1]
    assert check_certificate(game, LossCertificate(BASE_ON_TALON, card=base))
    # not on the talon, not a base, not stuck, not under the blocker, other rules
    absent = next(c for c in range(48) if c not in game.talon and LEVEL_OF[c])
    assert not check_certificate(game, LossCertificate(BASE_ON_TALON, card=absent))
    assert not check_certificate(
        game, LossCertificate(UNDER_STUCK_CARD, card=absent, blocker=base))
    assert not check_certificate(game, LossCertificate("no-such-reason", card=base))
    single = Game.from_position(game.position().replace("literal", "single-pass"))
    assert not check_certificate(single, LossCertificate(BASE_ON_TALON, card=base))
    # a position the relaxation can win has no relaxation certificate: eight cards out
    # (all in the stock), so the check's enumeration ends at the win, not at its size limit
    winnable = late_position(26, 8, "single-pass")
    assert len(winnable.stock) == 8 and Relaxation.of_game(winnable).winnable() is True
    assert not check_certificate(winnable, LossCertificate(RELAXATION_LOST), max_states=50_000)
    assert Relaxation.of_game(Game(144, rules="single-pass")).winnable() is True


@small
@given(seed=st.integers(0, 10**6), outside=st.integers(2, 8), rules=st.sampled_from(ONE_PASS),
       nodes=st.sampled_from([50, 2_000, 100_000]))
def test_bound_brackets_the_optimum(seed: int, outside: int, rules: str, nodes: int) -> None:
    game = late_position(seed, outside, rules)
    best = optimum(game)
    result = solve(game, time_limit=None, max_nodes=nodes)
    assert replay_score(game, result) == result.score
    assert 0 <= result.bound <= result.score
    assert result.proven == (result.bound == result.score)
    if best is not None:
        assert result.bound <= best <= result.score
        if nodes == 100_000:
            assert result.proven and result.score == best


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["single-pass", "literal"])
def test_no_bound_above_a_line_on_deals(rules: str) -> None:
    for number in (1, 5, 8, 144):
        game = Game(number, rules=rules)
        result = solve(game, time_limit=2)
        assert replay_score(game, result) == result.score
        assert result.bound <= result.score
        win = result.extra.get("win")
        if win == LOST:
            assert result.bound >= 1
        # a line proven optimal by the optimizing search needs no verdict
        assert win in (WON, LOST, UNKNOWN) or (win is None and result.proven)


def test_win_search_needs_no_redeal_left() -> None:
    with pytest.raises(ValueError):
        new_win_search(Game(1, rules="classic"))
    assert solve(Game(2), time_limit=5).extra == {}


def test_solve_prints_the_bound(capsys: pytest.CaptureFixture[str]) -> None:
    set_language("en")
    assert main(["solve", "--game", "1", "--rules", "single-pass",
                 "--time-limit", "0.5"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"best \d+, at least \d+", text), text
    assert main(["solve", "--game", "5", "--rules", "literal", "--time-limit", "0.5",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bound"] >= 1 and data["bound"] <= data["score"]
    assert data["proven"] == (data["bound"] == data["score"])


# ------------------------------------------------------------ the talon's bottom
@pytest.mark.parametrize(("talon", "lost"), [
    ("QH9H6H3H", False),  # a pile taken down from its top, then its base: the last four in
    ("9HQH6H3H", True),  # the 9 was never a top: the queen lay on it
    ("QH9H3H", True),  # the 6 is still on the 3: no pile of hearts 3-6-9-Q is down to its base
    ("2S", True),  # the very last card cannot be a fill: it would stand alone
    ("KS2S", True),  # the king is of another sequence
    ("JSJS8S8S5S2S", False),  # both piles of the sequence on the way down
    ("JS8SJS5S2S", False),
    ("JS8S5S2SKH", False),  # only the cards up to the lowest base count
    ("QH9H6H", False),  # no base on the talon: nothing is fixed yet
    ("JH8CTC", False),  # not the last cards either way: they may still leave
    ("", False),
])
def test_the_talon_bottom_reads_the_last_cards_of_a_won_pass(talon: str, lost: bool) -> None:
    seq = parse_cards(talon) if talon else []
    assert talon_bottom_lost([*seq, *parse_cards("2S3S")], len(seq)) is lost


@small
@given(seed=st.integers(0, 10**6), outside=st.integers(2, 9),
       rules=st.sampled_from(FILLS_FROM_TALON))
def test_the_talon_bottom_never_loses_a_winnable_position(
    seed: int, outside: int, rules: str
) -> None:
    game = late_position(seed, outside, rules)
    if talon_bottom_lost([*game.talon, *reversed(game.stock)], len(game.talon)):
        best = optimum(game)
        assert best is None or best >= 1


def _ending_on_the_talon(seed: int, order: list[int]) -> Game:
    """A won grid less one pile of a random sequence, whose base and three cards lie on
    the talon (``order`` gives the places of the pile's cards from the talon's bottom,
    0 the base), another pile split into its base and the rest (an emptying build
    that fills a space from the talon), and a few top cards of other piles on the talon
    above them: won exactly when the talon's four lowest cards come off the right way."""
    import random

    from devilsgrip.notation import format_cards

    rng = random.Random(seed)
    bases = [c for c in range(48) if not LEVEL_OF[c]] * 2
    rng.shuffle(bases)
    piles = [[b, b + 3, b + 6, b + 9] for b in bases]
    gone = piles.pop()
    split = piles.pop()
    talon = [gone[i] for i in order]
    for pile in rng.sample(piles, 2):
        talon.append(pile.pop())  # a top card: back on its pile by a talon build
    cells = [*piles, split[:1], split[1:]]
    rng.shuffle(cells)
    rows = [",".join(format_cards(p) for p in cells[r:r + 8]) for r in range(0, 24, 8)]
    return Game.from_position(f"{'/'.join(rows)} - {format_cards(talon)} 0 0 single-pass")


@pytest.mark.parametrize("seed", range(6))
def test_the_talon_bottom_decides_where_nothing_else_does(seed: int) -> None:
    # the right order (the pile's top card lowest) is won, and the test lets it be; any
    # other order of the same cards is lost, and the test says so, with a certificate
    for order in ([3, 2, 1, 0], [2, 3, 1, 0], [3, 1, 2, 0], [1, 2, 3, 0]):
        game = _ending_on_the_talon(seed, order)
        seq = [*game.talon, *reversed(game.stock)]
        right = order == [3, 2, 1, 0]
        assert talon_bottom_lost(seq, len(game.talon)) is not right
        assert (optimum(game) == 0) is right
        cert = find_certificate(game)
        assert (cert is None) is right
        if cert is not None:
            base = game.talon[order.index(0)]
            assert cert == LossCertificate(TALON_BOTTOM, blocker=base)
            assert check_certificate(game, cert)
            # refused: a named card, another base, spaces not filled from the talon
            assert not check_certificate(game, LossCertificate(TALON_BOTTOM, card=base,
                                                               blocker=base))
            other = next(c for c in range(48) if not LEVEL_OF[c] and c != base)
            assert not check_certificate(game, LossCertificate(TALON_BOTTOM, blocker=other))
            literal = Game.from_position(game.position().replace("single-pass",
                                                                 "literal,fill_from_talon=false"))
            assert not check_certificate(literal, LossCertificate(TALON_BOTTOM, blocker=base))


@pytest.mark.slow
def test_a_won_single_pass_line_keeps_its_talon_bottom() -> None:
    game = Game(144, rules="single-pass")
    result = solve(game, time_limit=None, max_nodes=300_000)
    assert result.score == 0
    for move in result.moves:
        assert not talon_bottom_lost([*game.talon, *reversed(game.stock)], len(game.talon))
        assert find_certificate(game) is None  # a pile for every base, too
        game.play(move)
    assert game.is_won()


# ------------------------------------------------------ a pile for every base
def _matching_verdict(game: Game) -> bool:
    """:func:`bases_unmatched` on ``game``'s position, read as the search reads it."""
    search = new_search(game)
    tops, bots, _ = search.bounds._grid_counts(search.grid0)
    return bases_unmatched(tops, bots, search.seq, search.p0, game.rules.fill_from_talon)


def _walked(seed: int, outside: int, rules: str, steps: int, split: bool) -> Game:
    game = (split_position if split else late_position)(seed, outside, rules)
    rng = random.Random(seed * 7 + steps)
    for _ in range(steps):
        moves = game.generate_moves(swaps=False)
        if not moves:
            break
        game.push(rng.choice(moves))
    return Game.from_position(game.position())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), outside=st.integers(2, 10), rules=st.sampled_from(ONE_PASS),
       steps=st.integers(0, 8), split=st.booleans())
def test_no_base_left_without_a_pile_loses_no_winnable_position(
    seed: int, outside: int, rules: str, steps: int, split: bool
) -> None:
    game = _walked(seed, outside, rules, steps, split)
    with patch("devilsgrip.solver.bounds.ALIGNMENT_STEPS", 10**6):  # never giving up here
        unmatched = _matching_verdict(game)
    # the certificate's own code, with explicit piles and augmenting paths, agrees
    assert _no_pile_for_every_base(game) is unmatched, game.position()
    if unmatched:
        best = optimum(game)
        assert best is None or best >= 1, game.position()


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(data=st.data())
def test_the_minimal_ways_of_filling_the_stock_are_all_that_need_trying(
    data: st.DataObject
) -> None:
    # the schedule of fills tried by the bound (between two bases filled from the stock
    # only as few fills as the deals of three leave over), against every play of the
    # stock, a deal or a fill of its top card at a time
    n = data.draw(st.integers(2, 16), label="stock cards")
    due = sorted(data.draw(st.sets(st.integers(1, n), min_size=1, max_size=4), label="bases"))
    time = st.one_of(st.integers(0, n), st.just(NEVER))
    chains = data.draw(st.lists(time, min_size=len(due), max_size=len(due) + 2), label="chains")
    # avail[t]: when a card the stock's t-th card goes on can first be a top
    avail = [0, *data.draw(st.lists(time, min_size=n, max_size=n), label="avail")]
    waits = [0] + [max(t, avail[t]) for t in range(1, due[-1])]
    fast = _fills_keep_pace(tuple(sorted(chains)), tuple(due), tuple(waits), 10**6)
    stock = [t + 4 for t in range(n)]  # the t-th card goes on card t (so comes from avail)
    every = _stock_fills_possible(chains, stock, due, lambda c: [avail[c]], NEVER, 10**7)
    assert fast is every


def _bases_waiting_for_their_piles(stock: str) -> Game:
    """A won grid but for three piles: clubs 2-5-8-J cut after its base (the 5 can be
    emptied onto the 2 at once), hearts 5-8-J waiting for a 2 of hearts and spades
    6-9-Q for a 3 of spades (their other copies are covered); the clubs 4-7-10-K pile
    is out.  ``stock`` holds the seven cards out (the talon is empty)."""
    rows = (
        "2C,5C8CJC,5H8HJH,6S9SQS,2H5H8HJH,3S6S9SQS,2S5S8SJS,2S5S8SJS/"
        "3H6H9HQH,3H6H9HQH,4H7HTHKH,4H7HTHKH,2D5D8DJD,2D5D8DJD,3D6D9DQD,3D6D9DQD/"
        "4D7DTDKD,4D7DTDKD,2C5C8CJC,3C6C9CQC,3C6C9CQC,4C7CTCKC,4S7STSKS,4S7STSKS"
    )
    return Game.from_position(f"{rows} {stock} - 0 0 single-pass")


@pytest.mark.parametrize(("stock", "won"), [
    ("KCTC7C4C2H3S", True),  # the 4 of clubs dealt onto the pile it takes down, in at the end
    ("2HKCTC7C4C3S", True),
    ("KC7CTC4C2H3S", False),  # the 7 under the 10: the 4 cannot lie lowest, so it fills
    ("4C7CTCKC2H3S", False),  # from the stock, and the 2 of hearts finds no pile emptied
    ("TCKC7C4C2H3S", False),
])
def test_a_pile_for_every_base_decides_where_the_other_bounds_do_not(
    stock: str, won: bool
) -> None:
    game = _bases_waiting_for_their_piles(stock)
    assert (optimum(game) == 0) is won
    search = new_search(game)
    assert search.lower_bound(search.grid0) == 0  # no other part of the bound sees it
    assert _matching_verdict(game) is not won
    cert = find_certificate(game)
    if won:
        assert cert is None
        assert not check_certificate(game, LossCertificate(BASES_UNMATCHED))
    else:
        assert cert == LossCertificate(BASES_UNMATCHED)
        assert check_certificate(game, cert)
        assert not check_certificate(game, LossCertificate(BASES_UNMATCHED, card=game.stock[0]))
        assert prove_winnable(game, time_limit=None).outcome == LOST
    # where no base may wait on the talon, every one fills from the stock: none of these
    # can be won
    literal = Game.from_position(game.position().replace("single-pass", "literal,move_unit=run"))
    assert _matching_verdict(literal)
    assert optimum(literal) != 0


def test_the_win_search_skips_only_lost_cuts() -> None:
    # with the cuts past a base that would lose on the talon left out, and without
    for seed in range(40):
        rules = ONE_PASS[seed % len(ONE_PASS)]
        game = _walked(seed, 6 + seed % 5, rules, seed % 4, split=seed % 3 == 0)
        found = new_win_search(game, time_limit=None, max_nodes=300_000).prove()
        every = new_win_search(game, time_limit=None, max_nodes=300_000)
        every._win_cuts = lambda p, n, r, s=every: s._cuts(p, n, r)  # type: ignore[method-assign]
        assert found == every.prove(), game.position()
