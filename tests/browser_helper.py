"""Headless Chromium for the viewer's tests, driven by Selenium and the distribution's driver.

Nothing is downloaded: the browser and its driver are the system's (Debian's `chromium` and
`chromium-driver`, which `.ci/run` installs where missing), named to Selenium by path so its own
driver manager never runs. Without them the tests are skipped with the reason, unless
AGENTODYSSEY_PZ_REQUIRE_BROWSER=1 (then they fail: CI sets it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from agentodyssey_pz.viewer import browser
from agentodyssey_pz.viewer.browser import BrowserUnavailable

REQUIRE = "AGENTODYSSEY_PZ_REQUIRE_BROWSER"


def unavailable(reason: str) -> None:
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{REQUIRE}=1 but {reason}")
    pytest.skip(f"{reason} ({browser.INSTALL_HINT})")


@contextmanager
def headless_chromium() -> Iterator[Any]:
    """A fresh headless Chromium on a laptop-sized window, keeping the page's console messages;
    a skip (a failure when REQUIRE is set) where there is none."""
    try:
        browser.find_browser()
    except BrowserUnavailable as exc:
        unavailable(str(exc))
    with browser.headless_chromium(1366, 768, console_logs=True) as session:
        yield session
