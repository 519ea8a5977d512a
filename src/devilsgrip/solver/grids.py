"""The two ways the search holds a grid, and the bit tables they are read with.

Only moves through which a card *enters* the grid change the score (see
:mod:`devilsgrip.solver.search`), and what the search needs of a grid depends
on what a grid build may move:

* ``run`` mode, :data:`RunGrid`: the multiset of tops ``T`` and the multiset of
  bottoms ``B``, as one int: ``T`` in 2-bit counters (bits ``2c``), ``B`` above
  bit :data:`B_SHIFT`.  A pile with bottom ``b`` can always be moved whole onto
  a top ``b - 3``, so nothing else about a pile matters.
* ``card`` mode, :data:`CardGrid`: a pile of one suit sequence is fixed by its
  bottom and its top, so the grid is the sorted tuple of the piles'
  :func:`pile_code`; builds that leave their source non-empty matter here.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Final, TypeAlias

from devilsgrip.cards import LEVEL_OF, N_CARDS

RunGrid: TypeAlias = int
"""A ``run``-mode grid: tops in 2-bit counters at bits ``2c``, bottoms at ``B_SHIFT + 2c``."""
CardGrid: TypeAlias = tuple[int, ...]
"""A ``card``-mode grid: the sorted :func:`pile_code` of every pile."""

B_SHIFT: Final = 96
"""Where a :data:`RunGrid`'s bottoms start: 48 counters of 2 bits hold the tops below."""
LOW_BITS: Final = int("01" * N_CARDS, 2)
"""The low bit of each of 48 2-bit counters."""
NONBASE: Final = sum(1 << (2 * c) for c in range(N_CARDS) if LEVEL_OF[c] >= 1)
"""The low bit of the counter of each card that is not a base."""
NONBASE_BOTH: Final = NONBASE * 3
"""Both bits of the counter of each card that is not a base."""
TOP_FIELD: Final[tuple[int, ...]] = tuple(1 << (2 * c) for c in range(N_CARDS))
"""One card ``c`` as a top (or in any multiset of counters at bits ``2c``)."""
BOTTOM_FIELD: Final[tuple[int, ...]] = tuple(1 << (B_SHIFT + 2 * c) for c in range(N_CARDS))
"""One card ``c`` as a bottom of a :data:`RunGrid`."""
BIT_CARD: Final[dict[int, int]] = {1 << (2 * c): c for c in range(N_CARDS)}
"""The card whose counter's low bit is this bit."""
TOPS_MASK: Final = (1 << B_SHIFT) - 1
"""A :data:`RunGrid`'s tops."""
NONBASE_CARDS: Final = tuple(c for c in range(N_CARDS) if LEVEL_OF[c])
TOPS_AND_NONBASE_BOTTOMS: Final = TOPS_MASK | (NONBASE_BOTH << B_SHIFT)
"""A :data:`RunGrid`'s tops and its non-base bottoms."""
_BYTE_COUNTERS: Final[tuple[tuple[int, int, int, int], ...]] = tuple(
    (b & 3, (b >> 2) & 3, (b >> 4) & 3, b >> 6) for b in range(256))
"""The four 2-bit counters of each byte."""


def nonzero(x: int) -> int:
    """The low bit of every non-zero 2-bit counter of ``x``."""
    return (x | (x >> 1)) & LOW_BITS


def count(x: int) -> int:
    """The sum of the 2-bit counters of ``x``."""
    return (x & LOW_BITS).bit_count() + 2 * ((x >> 1) & LOW_BITS).bit_count()


def pile_code(bottom: int, top: int) -> int:
    """A ``card``-mode pile: its bottom and top card in one int."""
    return bottom * N_CARDS + top


def run_grid(grid: Sequence[Sequence[int]]) -> RunGrid:
    """The :data:`RunGrid` of an engine grid."""
    g = 0
    for pile in grid:
        if pile:
            g += TOP_FIELD[pile[-1]] + BOTTOM_FIELD[pile[0]]
    return g


def card_grid(grid: Sequence[Sequence[int]]) -> CardGrid:
    """The :data:`CardGrid` of an engine grid."""
    return tuple(sorted(pile_code(pile[0], pile[-1]) for pile in grid if pile))


def run_tops_bottoms(g: RunGrid) -> tuple[int, int]:
    """The grid's top values (bit ``2c`` each) and its non-base bottoms (2-bit counters)."""
    return nonzero(g & TOPS_MASK), (g >> B_SHIFT) & NONBASE_BOTH


def card_tops_bottoms(g: CardGrid) -> tuple[int, int]:
    """:func:`run_tops_bottoms` for a ``card``-mode grid."""
    tops = 0
    bcount = 0
    for pile in g:
        tops |= TOP_FIELD[pile % N_CARDS]
        b = pile // N_CARDS
        if LEVEL_OF[b]:
            bcount += TOP_FIELD[b]
    return tops, bcount


def run_value_counts(g: RunGrid) -> tuple[list[int], list[int]]:
    """Per value: the tops and the non-base bottoms of the grid."""
    # four 2-bit counters a byte: tops in the first 12 bytes, bottoms after
    counts = list(chain.from_iterable(
        [_BYTE_COUNTERS[x] for x in (g & TOPS_AND_NONBASE_BOTTOMS).to_bytes(24, "little")]))
    return counts[:N_CARDS], counts[N_CARDS:]


def card_value_counts(g: CardGrid) -> tuple[list[int], list[int]]:
    """:func:`run_value_counts` for a ``card``-mode grid."""
    tops = [0] * N_CARDS
    bots = [0] * N_CARDS
    for pile in g:
        tops[pile % N_CARDS] += 1
        b = pile // N_CARDS
        if LEVEL_OF[b]:
            bots[b] += 1
    return tops, bots
