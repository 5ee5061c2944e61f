"""Debian's headless ``chromium`` driven through its ``chromedriver`` with selenium (both installed by ``.ci/run``),
for the tests of the pages rallyc writes (the replay viewer) and serves (``rallyc serve``)."""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from typing import Any, Iterator


@contextmanager
def headless_chromium() -> Iterator[Any]:
    """A headless Chromium of its own profile (1400 x 1000), its console logged; quit and its profile removed
    after."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "the browser tests need Debian's chromium and chromium-driver (.ci/run installs them)"
    profile = tempfile.mkdtemp(prefix="rallyc-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--no-first-run", f"--user-data-dir={profile}", "--window-size=1400,1000"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(driver), options=opts)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
