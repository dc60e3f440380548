"""The reference web client in a real browser (headless Chromium through Selenium and chromedriver):
every call goes through Envoy as gRPC-Web. Create a Kuhn match against an AI seat, get a hint, make
moves, see the AI answer, reach the end, step through the replay, and check the screenshot is a picture.

Needs Debian's chromium and chromium-driver (.ci/run installs them); skips with the reason otherwise."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from gateway_helpers import envoy_available, running_gateway

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
NO_ENVOY = envoy_available()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="needs chromium and chromedriver (apt-get install chromium chromium-driver; .ci/run does)",
    ),
    pytest.mark.skipif(NO_ENVOY is not None, reason=f"no Envoy: {NO_ENVOY}"),
]
SHOTS = Path(__file__).resolve().parents[1] / "build" / "web-client"


@pytest.fixture()
def browser():  # type: ignore[no-untyped-def]
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="orrery-chromium-")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1300,900",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(driver, script: str, what: str, timeout: float = 120):  # type: ignore[no-untyped-def]
    """Wait until a JavaScript condition holds (the page's own state, never a fixed delay)."""
    from selenium.webdriver.support.ui import WebDriverWait

    def page() -> list:
        return list(
            driver.execute_script(
                "return [document.body.dataset.state, document.getElementById('status').textContent]"
            )
        )

    try:  # stop early when the page shows an error
        WebDriverWait(driver, timeout, poll_frequency=0.1).until(
            lambda d: d.execute_script(script) or page()[0] == "error"
        )
    except Exception as exc:  # noqa: BLE001 - selenium's TimeoutException, with the page's state
        raise AssertionError(f"waiting for {what}; page state {page()}") from exc
    if not driver.execute_script(script):
        raise AssertionError(f"waiting for {what}; page state {page()}")


def test_play_kuhn_against_the_ai_in_a_browser(browser) -> None:  # type: ignore[no-untyped-def]
    from orrery.service._spawn import running_server
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with tempfile.TemporaryDirectory() as folder:
        args = ["--backend", "in-process", "--workers", "1", "--db", str(Path(folder) / "m.sqlite3")]
        with running_server(args, same_imports=True) as server, running_gateway(server.target) as base:
            browser.get(base + "/")
            wait_for(browser, "return document.body.dataset.state === 'ready'", "the game list (ListGames)")
            titles = [o.get_attribute("value") for o in Select(browser.find_element(By.ID, "game")).options]
            assert {"kuhn", "trian"} <= set(titles)
            Select(browser.find_element(By.ID, "game")).select_by_value("kuhn")
            Select(browser.find_element(By.ID, "players")).select_by_value("2")
            Select(browser.find_element(By.ID, "level")).select_by_value("LEVEL_EASY")
            browser.find_element(By.ID, "new-match").click()
            wait_for(browser, "return document.body.dataset.state === 'your-turn'", "our first turn")
            assert browser.find_element(By.CSS_SELECTOR, "#board svg title").get_attribute("textContent")
            # A hint: Analyze streams through Envoy; the top candidates appear with values and shares.
            browser.find_element(By.ID, "hint").click()
            wait_for(browser, "return document.getElementById('hint-list').dataset.final === '1'", "the hint")
            hints = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#hint-list li")]
            assert 1 <= len(hints) <= 3 and all("value" in h and "% of visits" in h for h in hints)
            # Bet every time: the AI must answer (call or fold), and the hand ends.
            while browser.execute_script("return document.body.dataset.state") != "over":
                wait_for(
                    browser, "return ['your-turn', 'over'].includes(document.body.dataset.state)", "our turn"
                )
                if browser.execute_script("return document.body.dataset.state") == "over":
                    break
                moves = int(browser.execute_script("return document.body.dataset.moves"))
                browser.find_element(By.CSS_SELECTOR, "#moves button[data-action='1']").click()
                wait_for(browser, f"return Number(document.body.dataset.moves) > {moves}", "our move applied")
            wait_for(browser, "return document.querySelectorAll('#log li').length >= 2", "the moves log")
            log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#log li")]
            assert any("(AI)" in line for line in log) and any("(you)" in line for line in log)
            assert "Game over" in browser.find_element(By.ID, "status").text
            # Replay the finished match move by move.
            browser.find_element(By.ID, "replay").click()
            wait_for(browser, "return document.body.dataset.replay === '0'", "the replay")
            for step in range(1, len(log) + 1):
                browser.find_element(By.ID, "replay-next").click()
                wait_for(browser, f"return document.body.dataset.replay === '{step}'", f"replay step {step}")
            assert browser.find_element(By.CSS_SELECTOR, "#board svg")
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot = SHOTS / "kuhn-replay.png"
            browser.save_screenshot(str(shot))
    assert_not_blank(shot)


def assert_not_blank(path: Path) -> None:
    """A picture, not an empty page: many distinct colours and real contrast."""
    import matplotlib.image
    import numpy as np

    pixels = matplotlib.image.imread(str(path))[..., :3]
    colours = np.unique((pixels * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 50 and float(pixels.std()) > 0.05, (len(colours), float(pixels.std()))
