"""Fuzzing every parser: bad text raises the project's typed errors and nothing else.

Each parser gets valid strings mutated by inserting, replacing and deleting
characters (other scripts' digits such as ``²``, ``٣`` and ``１`` that
``str.isdigit`` takes and ``int`` may refuse, lone surrogates, 5,000-digit
numbers, deep nesting, line breaks, NUL) and arbitrary text.  Whatever it
gets, a parser returns or raises a :class:`DevilsGripError` whose reason
code has an English template and translates; a valid input still parses.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from devilsgrip import DevilsGripError, Game, Move, MoveKind, Rules, parse_card, parse_deck
from devilsgrip.cards import MAX_COUNT, MAX_GAME_NUMBER, parse_number
from devilsgrip.i18n import ERROR_MESSAGES, translate_error
from devilsgrip.notation import (
    format_cards,
    format_deck,
    parse_cards,
    parse_game_number,
    parse_moves,
    strip_comments,
)
from devilsgrip.records import read_record, write_record

FUZZ = settings(deadline=None, max_examples=300)
SLOW_FUZZ = settings(deadline=None, max_examples=100)

HUGE = "9" * 5000
NASTY = [
    "²", "³", "٣", "１", "߀", "৪", "Ⅻ", "½", "\ud800", "\udcff", "\U0001f0a1",
    HUGE, "0" * 5000, "1" + "0" * 4400, "-" + HUGE, "[" * 1000, "(" * 1000, "{" * 1000,
    "\\" * 50, '"', "'", "\n", "\r\n", "\x00", "\x1b[2J", "\u2028", "\x85", "\t", " ",
    "=", "-", ",", "/", ";", ".", "*", "]", "}", "İ", "ß", "ﬀ", "𝟙", "nan", "inf", "-1",
    "0", "9", "1_0", "+1", "0x1f", "1e9", "unlimited", "true", "classic", "10", "t", "d",
    "a1", "h3", "TS", "10♠", "♣", "[Game \"", "[Position \"", "\" ]",
]
"""Pieces the mutations insert: what broke parsers before, and what looks valid."""

# codes whose text i18n.error_text builds without a template of its own
TEMPLATELESS = {"no-redeals-left"}


def typed_or_nothing(parse: Callable[[Any], object], value: Any) -> DevilsGripError | None:
    """Run ``parse``; any exception but a translatable :class:`DevilsGripError` fails."""
    try:
        parse(value)
    except DevilsGripError as exc:
        assert exc.code in ERROR_MESSAGES or exc.code in TEMPLATELESS, exc.code
        for lang in ("en", "fr", "hu"):
            text = translate_error(exc, lang)
            assert isinstance(text, str) and text
        return exc
    return None


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """One of ``seeds`` after 1 to 4 insertions, replacements or deletions."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        piece = draw(st.one_of(st.sampled_from(NASTY), st.text(
            st.characters(exclude_categories=()), min_size=1, max_size=3)))
        kind = draw(st.sampled_from(("insert", "replace", "delete")))
        if kind == "insert":
            text = text[:at] + piece + text[at:]
        elif kind == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        else:
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
    return text


any_text = st.text(st.characters(exclude_categories=()), max_size=200)
"""Arbitrary text, lone surrogates included."""


def fuzz_text(seeds: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(mutated(seeds), any_text)


# ------------------------------------------------------------------ seeds
def _played(number: int, rules: str, steps: int) -> Game:
    rng = random.Random(number)
    game = Game(number, rules=rules)
    for _ in range(steps):
        moves = game.generate_moves()
        if not moves:
            break
        builds = [m for m in moves if m.kind != MoveKind.DEAL]
        game.play(rng.choice(builds or moves))
    return game


MOVES = ["d", "r", "t-c2", "a1-c2", "a1=c2", "H3 = A1", " deal ", "b2-b3"]
CARDS = ["TS", "10♠", "qh", "2c", "K♦", "9♥"]
CARD_RUNS = ["5S8SJS", "-", "2H", "3D6D9DQD"]
DECKS = [format_deck(Game(n).deck or ()) for n in (1, 77)]
RULES = ["classic", "single-pass,redeals=2", "literal,move_unit=run,draw=1",
         "redeals=unlimited", "classic,fill_from_talon=false", "single-pass,draw=96"]
POSITIONS = [_played(3, "classic", 40).position(), Game(5, rules="literal").position(),
             _played(8, "single-pass", 15).position()]
RECORDS = [write_record(_played(2, "classic", 30)), write_record(Game(deck=DECKS[1])),
           write_record(Game.from_position(POSITIONS[0]))]


# ------------------------------------------------------------ bad inputs
def with_counts(position: str, redeals: str, moves: str) -> str:
    """``position`` with its redeals-done and moves-played fields replaced."""
    fields = position.split()
    fields[3:5] = [redeals, moves]
    return " ".join(fields)


REGRESSIONS = {
    "Rules.parse": [
        "classic,draw=²", "classic,draw=" + HUGE, "classic,redeals=²", "classic,redeals=٣",
        "classic,redeals=" + HUGE, "single-pass,redeals=１",
    ],
    "Game.from_position": [
        with_counts(POSITIONS[0], "²", "40"), with_counts(POSITIONS[0], "0", HUGE),
        with_counts(POSITIONS[0], "٣", "40"), with_counts(POSITIONS[0], HUGE, "0"),
        with_counts(POSITIONS[0], "0", "１"), with_counts(POSITIONS[0], "0", str(MAX_COUNT + 1)),
    ],
    "read_record": [
        '[Game "²"]\n\n*\n', f'[Game "{HUGE}"]\n\n*\n', '[Game "٣"]\n\n*\n',
        '[Game "1"]\n[Rules "classic,draw=²"]\n\n*\n',
        f'[Position "{with_counts(POSITIONS[0], "²", "0")}"]\n\n*\n',
    ],
}


@pytest.mark.parametrize(
    ("name", "text"),
    [(name, text) for name, texts in REGRESSIONS.items() for text in texts],
    ids=lambda v: ascii(v)[:40],
)
def test_what_fuzzing_found_is_a_typed_error(name: str, text: str) -> None:
    parse: Callable[[str], object] = {
        "Rules.parse": Rules.parse,
        "Game.from_position": Game.from_position,
        "read_record": read_record,
    }[name]
    assert typed_or_nothing(parse, text) is not None


@pytest.mark.parametrize(
    "number", [0, -3, 2**63, 10**5000, -(10**5000), 1.0, "12", True, 2.5],
    ids=["0", "-3", "2**63", "10**5000", "-10**5000", "1.0", "'12'", "True", "2.5"],
)
def test_a_bad_game_number_is_a_deck_error(number: Any) -> None:
    exc = typed_or_nothing(Game, number)
    assert exc is not None and exc.code in ("game-number-range", "game-number-bad")
    assert len(exc.message) < 100  # a huge int is shown by its last digits


# ------------------------------------------------------------------ fuzzing
@FUZZ
@given(fuzz_text(MOVES))
@example("t-c²")
@example("a²-c2")
def test_move_text(text: str) -> None:
    typed_or_nothing(Move.from_text, text)
    typed_or_nothing(parse_moves, text)


@FUZZ
@given(fuzz_text(CARDS + CARD_RUNS))
def test_cards(text: str) -> None:
    typed_or_nothing(parse_card, text)
    typed_or_nothing(parse_cards, text)


@SLOW_FUZZ
@given(fuzz_text(DECKS))
def test_decks(text: str) -> None:
    typed_or_nothing(parse_deck, text)
    typed_or_nothing(lambda deck: Game(deck=deck), text)


@FUZZ
@given(fuzz_text(RULES))
@example("classic,draw=²")
@example("redeals=" + HUGE)
def test_rules_text(text: str) -> None:
    typed_or_nothing(Rules.parse, text)


@SLOW_FUZZ
@given(fuzz_text(POSITIONS))
@example(with_counts(POSITIONS[1], "²", "0"))
@example(with_counts(POSITIONS[1], "0", HUGE))
def test_positions(text: str) -> None:
    typed_or_nothing(Game.from_position, text)


@SLOW_FUZZ
@given(fuzz_text(RECORDS))
@example('[Game "²"]\n\n*\n')
def test_records(text: str) -> None:
    typed_or_nothing(read_record, text)


@FUZZ
@given(fuzz_text(["1", "42", str(MAX_GAME_NUMBER), "0001"]))
def test_game_number_text(text: str) -> None:
    exc = typed_or_nothing(parse_game_number, text)
    if exc is None:
        number = parse_game_number(text)
        assert 1 <= number <= MAX_GAME_NUMBER and text.strip().isascii()


@pytest.mark.slow
@FUZZ
@given(st.one_of(
    st.integers(),
    st.integers(min_value=MAX_GAME_NUMBER - 3, max_value=MAX_GAME_NUMBER + 3),
    st.sampled_from([10**5000, -(10**5000), 2**64, -(2**63)]),
    st.floats(allow_nan=True), st.booleans(), st.text(max_size=20),
))
def test_game_numbers(number: Any) -> None:
    if typed_or_nothing(Game, number) is None:
        assert isinstance(number, int) and 1 <= number <= MAX_GAME_NUMBER
        assert Game(number).number == number


@FUZZ
@given(fuzz_text(["0", "42", "96", "0042", str(MAX_COUNT)]))
def test_parse_number_takes_ascii_digits_only(text: str) -> None:
    got = parse_number(text, MAX_COUNT)
    if got is None:
        assert not (text.isascii() and text.isdigit())
    else:
        assert text.isascii() and text.isdigit() and 0 <= got <= MAX_COUNT + 1
        digits = text.lstrip("0") or "0"
        if len(digits) < 4000:
            assert got == min(int(digits), MAX_COUNT + 1)


# --------------------------------------------------- valid input still parses
@FUZZ
@given(st.integers(1, 200), st.sampled_from(["classic", "single-pass", "literal"]),
       st.integers(0, 60))
def test_valid_positions_and_records_still_parse(number: int, rules: str, steps: int) -> None:
    game = _played(number, rules, steps)
    assert Game.from_position(game.position()).key() == game.key()
    again = read_record(write_record(game))
    assert again.key() == game.key() and again.number == number


@FUZZ
@given(st.sampled_from(RULES), st.integers(0, 5), st.integers(1, 96), st.integers(0, MAX_COUNT))
def test_valid_rules_still_parse(text: str, zeros: int, draw: int, redeals: int) -> None:
    assert Rules.parse(str(Rules.parse(text))) == Rules.parse(text)
    padded = Rules.parse(f"{text},draw={'0' * zeros}{draw},redeals={redeals}")
    assert (padded.draw, padded.redeals) == (draw, redeals)


@FUZZ
@given(st.integers(1, MAX_GAME_NUMBER), st.integers(0, 3))
def test_valid_game_numbers_still_parse(number: int, zeros: int) -> None:
    assert parse_game_number(f" {'0' * zeros}{number} ") == number
    record = write_record(Game(number))
    assert read_record(record).number == number


def test_valid_cards_decks_and_moves_still_parse() -> None:
    assert [parse_card(c) for c in CARDS] == [parse_card(c.upper()) for c in CARDS]
    for run in CARD_RUNS:
        assert format_cards(parse_cards(run)) == run
    for deck in DECKS:
        assert format_deck(parse_deck(deck)) == deck
    assert [str(Move.from_text(m)) for m in MOVES] == [
        "d", "r", "t-c2", "a1-c2", "a1=c2", "a1=h3", "d", "b2-b3"]
    assert [str(m) for m in parse_moves("1. d 2. t-c2 3.. a1-c2")] == ["d", "t-c2", "a1-c2"]


# ------------------------------------------------------------ deep nesting
COMMENT_RE = re.compile(r"\{[^}]*\}|;[^\n]*")
"""What record comments were: the same result, but quadratic on unclosed ``{``."""


@FUZZ
@given(st.text(st.sampled_from("{};\nad1. "), max_size=40))
def test_comments_are_stripped_as_before(text: str) -> None:
    assert strip_comments(text) == COMMENT_RE.sub(" ", text)


@pytest.mark.parametrize("body", ["{" * 200_000, "{;" * 100_000, ";\n" * 50_000 + "{",
                                  "[" * 200_000, "(" * 200_000, '[Game "' + "\\" * 100_000],
                         ids=["braces", "brace-semicolons", "comment-lines", "brackets",
                              "parentheses", "backslashes"])
def test_deep_nesting_is_refused_quickly(body: str) -> None:
    start = time.perf_counter()
    typed_or_nothing(read_record, '[Game "1"]\n' + body)
    assert time.perf_counter() - start < 5  # the old comment pattern took about a minute
