"""Settings of the whole suite: how many examples each property test tries.

The property tests say how many examples they want (``@settings(max_examples=300)``);
a Hypothesis profile caps that number for the run at hand, so the same properties
are checked everywhere and only the depth of the search changes:

- ``ci`` (the default, ``make test``): at most 100 examples a property;
- ``dev`` (``make check``, the edit-test loop): at most 20;
- ``thorough``: each test's own number, for a long run now and then
  (``HYPOTHESIS_PROFILE=thorough make test``).

No profile has a deadline: on a shared machine the time of one example says
nothing about the code, and a deadline would only make the suite flaky.

The modules run longest first: those with browser tests, then those with tests
marked ``slow``, then the rest, each module's tests together and in their order.
With two workers stealing work from each other (``--dist worksteal``), the last
tests to run are then short ones, so neither core waits long for the other at
the end, and a module's browser, server or built site starts once or twice, not
once per batch of tests.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

CAPS: dict[str, int | None] = {"thorough": None, "ci": 100, "dev": 20}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in CAPS:
    raise pytest.UsageError(
        f"HYPOTHESIS_PROFILE={PROFILE!r}: the profiles are {', '.join(CAPS)}")
for _name, _cap in CAPS.items():
    settings.register_profile(_name, deadline=None, print_blob=True,
                              max_examples=min(100, _cap or 100))
settings.load_profile(PROFILE)


def _weight(item: pytest.Item) -> int:
    """0 for a browser test, 1 for a slow one, 2 for the rest."""
    if item.get_closest_marker("browser") is not None:
        return 0
    return 1 if item.get_closest_marker("slow") is not None else 2


def longest_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The items, modules ordered by their heaviest test (stable), each module whole."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(str(item.path), []).append(item)
    order = sorted(modules.values(), key=lambda group: min(map(_weight, group)))
    return [item for group in order for item in group]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the heaviest modules first; cap every property test's own ``max_examples``
    at the profile's cap."""
    items[:] = longest_first(items)
    cap = CAPS[PROFILE]
    if cap is None:
        return
    for item in items:
        test = getattr(item, "obj", None)
        if getattr(test, "is_hypothesis_test", False):
            own = test._hypothesis_internal_use_settings  # type: ignore[union-attr]
            if own.max_examples > cap:
                test._hypothesis_internal_use_settings = settings(  # type: ignore[union-attr]
                    own, max_examples=cap)


def pytest_report_header() -> str:
    cap = CAPS[PROFILE]
    return f"hypothesis profile: {PROFILE} (examples a property: {cap or 'its own'} at most)"
