"""The paired intervals of the players benchmark (``benchmarks/players.py``): Student's t
with the sample's own degrees of freedom."""

from __future__ import annotations

import importlib.util
import itertools
import math
import statistics
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "players.py"


@pytest.fixture(scope="module")
def players() -> ModuleType:
    spec = importlib.util.spec_from_file_location("players_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# the 97.5% quantiles of printed tables of Student's t, three decimals
PRINTED = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 7: 2.365, 10: 2.228, 19: 2.093,
           29: 2.045, 30: 2.042, 39: 2.023, 40: 2.021, 60: 2.000, 120: 1.980}


@pytest.mark.parametrize("df", sorted(PRINTED))
def test_the_quantiles_are_those_of_the_printed_tables(players: ModuleType, df: int) -> None:
    assert round(players.t_quantile(df), 3) == PRINTED[df]


def test_other_levels_and_many_degrees_of_freedom(players: ModuleType) -> None:
    assert round(players.t_quantile(10, 0.95), 3) == 1.812
    assert round(players.t_quantile(5, 0.995), 3) == 4.032
    assert players.t_quantile(1, 0.5) == pytest.approx(0.0, abs=1e-9)
    normal = statistics.NormalDist().inv_cdf(0.975)
    assert players.t_quantile(100_000) == pytest.approx(normal, abs=1e-4)
    values = [players.t_quantile(df) for df in range(1, 200)]
    assert all(a > b for a, b in itertools.pairwise(values))  # fewer degrees, wider


def test_nonsense_is_refused(players: ModuleType) -> None:
    with pytest.raises(ValueError, match="df 0"):
        players.t_quantile(0)
    with pytest.raises(ValueError, match="p 1"):
        players.t_quantile(5, 1.0)


def test_a_paired_interval_uses_the_sample_s_own_degrees(players: ModuleType) -> None:
    diffs = [(-1) ** k * (k % 7) - 2 for k in range(40)]
    mean, low, high = players.interval(diffs)
    half = 2.0227 * statistics.stdev(diffs) / math.sqrt(40)
    assert mean == pytest.approx(statistics.mean(diffs))
    assert (low, high) == pytest.approx((mean - half, mean + half), abs=1e-3)
    assert players.interval([3]) == (3, -math.inf, math.inf)
