"""Headless Chromium for the viewer's tests, driven by Selenium and the distribution's driver.

Nothing is downloaded: the browser and its driver are the system's (Debian's `chromium` and
`chromium-driver`, which `.ci/run` installs where missing), named to Selenium by path so its own
driver manager never runs. Without them the tests are skipped with the reason, unless
AGENTODYSSEY_PZ_REQUIRE_BROWSER=1 (then they fail: CI sets it).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

REQUIRE = "AGENTODYSSEY_PZ_REQUIRE_BROWSER"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1366,768",  # a laptop screen
)


def unavailable(reason: str) -> None:
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{REQUIRE}=1 but {reason}")
    pytest.skip(f"{reason} (apt-get install chromium chromium-driver)")


def find_browser() -> tuple[str, str]:
    """(browser, driver) paths, or a skip (a failure when REQUIRE is set)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        unavailable("selenium is not installed (it is in the test extra)")
    browser = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        missing = " and ".join(
            n for n, p in (("chromium", browser), ("chromedriver", driver)) if not p
        )
        unavailable(f"no {missing} on PATH")
    return browser, driver  # type: ignore[return-value]


@contextmanager
def headless_chromium() -> Iterator[Any]:
    """A Selenium driver of a fresh headless Chromium (its own profile folder), quit after."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = find_browser()
    profile = tempfile.mkdtemp(prefix="viewer-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    session = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        yield session
    finally:
        session.quit()
        shutil.rmtree(profile, ignore_errors=True)
