"""The system's headless Chromium, driven by Selenium: how the viewer's pages are opened by the
tests, the size-and-load benchmark and the screenshot script.

Nothing is downloaded: the browser and its driver are the system's (Debian's `chromium` and
`chromium-driver`), named to Selenium by path so its own driver manager never runs. Selenium is in
the `test` extra; nothing else in the package imports this module.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Without the background-networking flags Chromium keeps trying to reach Google's hosts.
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
)
INSTALL_HINT = "apt-get install chromium chromium-driver"


class BrowserUnavailable(Exception):
    """Selenium, Chromium or chromedriver is missing (the message says which)."""


def find_browser() -> tuple[str, str]:
    """(browser, driver) paths found on PATH; BrowserUnavailable naming what is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        raise BrowserUnavailable("selenium is not installed (it is in the test extra)") from None
    browser = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        missing = " and ".join(
            name for name, path in (("chromium", browser), ("chromedriver", driver)) if not path
        )
        raise BrowserUnavailable(f"no {missing} on PATH")
    return browser, driver


@contextmanager
def headless_chromium(
    width: int = 1366, height: int = 768, *, console_logs: bool = False
) -> Iterator[Any]:
    """A Selenium session of a fresh headless Chromium (its own profile folder), quit after.
    `console_logs` keeps the page's console messages for `session.get_log("browser")`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = find_browser()
    profile = tempfile.mkdtemp(prefix="viewer-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*FLAGS, f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if console_logs:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    session = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        yield session
    finally:
        session.quit()
        shutil.rmtree(profile, ignore_errors=True)
