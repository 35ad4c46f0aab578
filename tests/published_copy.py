"""The user's copy of AgentOdyssey for the tests that read or run its published games.

The README's test command installs it (`pip install --no-deps agentodyssey==0.1.0`), so in CI these
tests always run. Elsewhere, without a copy, they are skipped with a reason that says how to get
one, unless AGENTODYSSEY_PZ_REQUIRE_PUBLISHED=1 (then they fail: CI sets it).
"""

from __future__ import annotations

import os

import pytest

from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published.locate import PublishedCopy, find_published

REQUIRE = "AGENTODYSSEY_PZ_REQUIRE_PUBLISHED"


def published_copy() -> PublishedCopy:
    """The copy, or a skip (a failure when REQUIRE is set) naming how to get one."""
    try:
        return find_published()
    except PublishedGameError as exc:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{REQUIRE}=1 but: {exc}")
        pytest.skip(str(exc))
