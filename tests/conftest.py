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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Cap every property test's own ``max_examples`` at the profile's cap."""
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
