"""``todo serve`` in a real browser: headless Chromium (Debian's ``chromium`` with
its ``chromium-driver``, which ``.ci/run`` installs), driven by Selenium, as a
person sees the board. One browser for the module; each test a few seconds."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import git
from tests.support_serve import Served, served

webdriver = pytest.importorskip("selenium.webdriver", reason="the browser tests need selenium")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402 - after the skip
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
DRIVER = shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:
    pytest.skip(
        "no headless browser here: install Debian's chromium and chromium-driver "
        "(apt-get install chromium chromium-driver; .ci/run does)",
        allow_module_level=True,
    )

LIVE = 0.3  # seconds from a write to the page


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument("--window-size=1280,900")
    try:
        driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
    except Exception as exc:  # a browser that will not start here: say why, and skip
        pytest.skip(f"headless Chromium did not start: {str(exc).splitlines()[0]}")
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def todo(*args: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "todocli", *args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture
def lists(home: Path) -> Path:
    todo("init", "Write the parser", "Run tests")
    todo("note", "Write the parser", "<script>document.title='owned'</script>")
    todo("--session", "other", "init", "Deploy", "Tell the team")
    return home / "sessions" / "default.md"


def open_board(driver: Any, board: Served) -> None:
    driver.get(board.url)
    WebDriverWait(driver, 5, 0.02).until(
        lambda d: d.find_element(By.ID, "live").text.startswith("Live")
    )  # the script ran and the event stream is open


def find(driver: Any, text: str) -> Any:
    """The task's item on the page, or None."""
    for item in driver.find_elements(By.CSS_SELECTOR, "li.task"):
        if item.get_attribute("data-task") == text:
            return item
    return None


def task(driver: Any, text: str) -> Any:
    item = find(driver, text)
    assert item is not None, f"no task {text!r} on the page"
    return item


def has(text: str, word: str) -> Callable[[Any], bool]:
    """A wait's condition: the task is on the page with this status (a class)."""

    def shown(driver: Any) -> bool:
        item = find(driver, text)
        return item is not None and word in (item.get_attribute("class") or "").split()

    return shown


def press(driver: Any, css: str, *keys: str) -> None:
    """Click the element ``css`` selects (or, given ``keys``, type them on it);
    again if the list was redrawn under it (a live update replaces its section)."""

    def clicked(d: Any) -> bool:
        found = d.find_element(By.CSS_SELECTOR, css)
        if keys:
            found.send_keys(*keys)
        else:
            found.click()
        return True

    WebDriverWait(driver, 5, 0.01, (StaleElementReferenceException,)).until(clicked)


def within(driver: Any, seconds: float, condition: Callable[[Any], object]) -> float:
    """How long ``condition`` took to hold on the page (failing past ``seconds``)."""
    start = time.monotonic()
    WebDriverWait(driver, seconds, 0.005, (StaleElementReferenceException,)).until(condition)
    return time.monotonic() - start


def test_the_board_as_a_person_sees_it(
    browser: Any, lists: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "TODO.md").write_text("# Plan\n\n- [ ] Ship it\n- [x] Design it\n")
    monkeypatch.chdir(repo)
    env = {k: v for k, v in os.environ.items() if k != "TODOCLI_PROJECT"}
    with served(env) as board:
        open_board(browser, board)
        titles = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "section.list h2")]
        assert titles == ["default", "other", "Project plan (repo)"]
        # The <script> note is text on the page, and never ran.
        assert browser.title == "todo board"
        note = task(browser, "Write the parser").find_element(By.CSS_SELECTOR, ".notes li")
        assert note.text == "<script>document.title='owned'</script>"
        # Each checkbox is named by its task; each button has a name.
        box = task(browser, "Run tests").find_element(By.CSS_SELECTOR, "input[type=checkbox]")
        assert box.accessible_name == "Run tests"
        assert box.is_enabled()  # the script enabled the controls
        for button in browser.find_elements(By.TAG_NAME, "button"):
            assert button.accessible_name, button.get_attribute("outerHTML")
        for width in (360, 1920):
            browser.set_window_size(width, 1000)
            # Nothing wider than the window: read without scrolling sideways.
            scroll = browser.execute_script("return document.documentElement.scrollWidth")
            assert scroll <= width, f"{scroll} px wide at {width} px"
            browser.save_screenshot(str(tmp_path / f"board-{width}.png"))
        browser.set_window_size(1280, 900)
    assert (tmp_path / "board-360.png").stat().st_size > 1000


def test_an_agents_done_and_an_editor_save_appear_live(browser: Any, lists: Path) -> None:
    with served() as board:
        open_board(browser, board)
        todo("done", "Run tests")  # an agent's todo, another process
        took = within(browser, 2, has("Run tests", "completed"))
        assert took < LIVE, f"{took * 1000:.0f} ms"
        saved = time.monotonic()
        lists.write_text(lists.read_text() + "- [ ] Typed in an editor\n")
        within(browser, 2, has("Typed in an editor", "pending"))
        assert time.monotonic() - saved < LIVE  # no wait for the save pause


def test_ticking_changes_exactly_that_task_and_undo_takes_it_back(
    browser: Any, lists: Path
) -> None:
    before = lists.read_text()
    with served() as board:
        open_board(browser, board)
        press(browser, 'li.task[data-task="Run tests"] input[type=checkbox]')
        within(browser, 5, has("Run tests", "completed"))
        assert lists.read_text() == before.replace("- [ ] Run tests", "- [x] Run tests")
        press(browser, 'section[data-list="session:default"] button[data-act="undo"]')
        within(browser, 5, has("Run tests", "pending"))
        assert lists.read_text() == before


# HTML5 drag and drop as the page receives it: Selenium's own drag does not drive
# Chromium's native drag events, so the test sends the events a drag sends.
DRAG = """
const [from, onto] = arguments;
const data = new DataTransfer();
const send = (el, type) => el.dispatchEvent(
    new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: data}));
send(from, "dragstart"); send(onto, "dragover"); send(onto, "drop"); send(from, "dragend");
"""


def test_drag_and_drop_reorders_the_files_lines(browser: Any, lists: Path) -> None:
    todo("add", "Ship it")
    with served() as board:
        open_board(browser, board)
        assert task(browser, "Ship it").get_attribute("draggable") == "true"
        browser.execute_script(DRAG, task(browser, "Ship it"), task(browser, "Write the parser"))

        def moved(driver: Any) -> bool:
            return lists.read_text().splitlines()[1] == "- [ ] Ship it"

        within(browser, 5, moved)
        shown = 'section[data-list="session:default"] li.task'

        def reordered(driver: Any) -> bool:
            items = driver.find_elements(By.CSS_SELECTOR, shown)
            order = [li.get_attribute("data-task") for li in items]
            return order == ["Ship it", "Write the parser", "Run tests"]

        within(browser, 5, reordered)  # the page shows the new order too
        # The keyboard's way: Alt+ArrowDown on the task's checkbox.
        press(browser, 'li.task[data-task="Ship it"] input[type=checkbox]')  # focus, tick
        within(browser, 5, has("Ship it", "completed"))
        box = 'li.task[data-task="Write the parser"] input[type=checkbox]'
        press(browser, box, Keys.ALT, Keys.ARROW_DOWN)

        def last(driver: Any) -> bool:
            tasks = [line for line in lists.read_text().splitlines() if line.startswith("- [")]
            return tasks[-1] == "- [/] Write the parser"

        within(browser, 5, last)


def test_with_scripts_off_the_page_is_a_read_only_view(browser: Any, lists: Path) -> None:
    with served() as board:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            browser.get(board.url)
            assert browser.find_element(By.ID, "live").text.startswith("Read-only view")
            box = task(browser, "Run tests").find_element(By.CSS_SELECTOR, "input[type=checkbox]")
            assert box.accessible_name == "Run tests"
            assert not box.is_enabled()
            assert all(not b.is_enabled() for b in browser.find_elements(By.TAG_NAME, "button"))
            assert "<script>" in task(browser, "Write the parser").text
        finally:
            browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
            browser.get("about:blank")


def test_a_page_that_missed_a_hand_edit_keeps_it(browser: Any, lists: Path) -> None:
    with served() as board:
        # The page's event stream is cut: it will not hear of the edit below.
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/events*"]})
        try:
            browser.get(board.url)
            WebDriverWait(browser, 5, 0.02).until(
                lambda d: d.find_element(By.ID, "live").text.startswith("Reconnecting")
            )
            lists.write_text(lists.read_text() + "- [ ] Added by hand\n")
            time.sleep(0.15)  # the save is over (TODOCLI_SAVE_PAUSE is 0.1 s here)
            assert find(browser, "Added by hand") is None  # the page has not seen it
            before = lists.read_text()
            press(browser, 'li.task[data-task="Run tests"] input[type=checkbox]')
            within(browser, 5, has("Added by hand", "pending"))  # brought up to date
            assert lists.read_text() == before.replace("- [ ] Run tests", "- [x] Run tests")
        finally:
            browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
            browser.get("about:blank")
