"""Fixtures and helpers shared by the page's browser tests (test_page*.py).

One way to write a page test, in every engine: take the `browser` fixture (or `page`, the
module's app in a new context) and drive it with Playwright's page API — the subset that
webdriver_page.py gives WebKit. Each test then runs once per engine in
engines.ENGINES (`test_x[chromium]`, `test_x[webkit]`), each engine with a server of its
own for the module. `page.engine` names the engine, for the rare step one cannot take.
"""
import contextlib
import functools
import http.server
import json
import os
import subprocess
import tempfile
import threading
import time

import pytest

import engines
from conftest import ROOT, TABLEWEB, TablewebServer
from engines import CHROMIUM  # noqa: F401 (screenshots.py, pageframes.py)

PUBLIC = os.path.join(ROOT, "Public")
TIMEOUT_MS = 5000
PHONE = {"width": 390, "height": 844}  # an iPhone's viewport


@pytest.fixture(scope="module", params=engines.ENGINES)
def engine(request):
    """The engine a module's page tests run in, one after the other."""
    return request.param


@pytest.fixture(scope="module")
def browser(engine):
    """A browser of `engine` for one test module. Module-scoped, so that Playwright's event
    loop is gone again before other modules run their own asyncio code."""
    b = engines.launch(engine)
    yield b
    b.close()


@contextlib.contextmanager
def new_page(browser, url=None, **context_options):
    """A page in its own context (its own localStorage), with a bounded timeout."""
    # Playwright's wait_for_function evaluates a string, which the page's CSP forbids:
    # page tests bypass it; test_page_access.py, which tests the policy, does not.
    # (WebDriver's scripts are the browser's own: no policy applies to them.)
    options = {"viewport": PHONE, "bypass_csp": True, **context_options}
    context = browser.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    if browser.name == "chromium":
        page.engine = "chromium"
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.answers = []  # the server's ack and error messages, in order
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: _note_answer(page, f)))
    try:
        if url:
            page.goto(url)
        yield page
    finally:
        context.close()


def _note_answer(page, frame):
    with contextlib.suppress(ValueError, TypeError):
        message = json.loads(frame)
        if isinstance(message, dict) and message.get("type") in ("ack", "error"):
            page.answers.append(message)


def answered(page, action):
    """Does `action` and waits until the server has answered the command it sends."""
    before = len(page.answers)
    action()
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while len(page.answers) == before:
        assert time.monotonic() < deadline, "the server did not answer"
        page.wait_for_timeout(20)
    return page.answers[before]


@pytest.fixture(scope="session")
def public_url():
    """Public/ from a plain static server: for testing modules without the app server."""
    handler = functools.partial(_QuietHandler, directory=PUBLIC)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def log_message(self, *args):
        pass


# --- The real server -------------------------------------------------------------
# conftest's `tableweb_server` (the demo app, one per test) serves most uses. Server adds
# what a module of page tests needs: one server for the module, its own app imported
# first, and a restart on the same port and database, as the page sees a real one.


class Server:
    """conftest's TablewebServer with `app` (the data format) imported into its database
    first (without one, the demo app), which can be stopped and started again on the same
    port and database."""

    def __init__(self, app=None, public=PUBLIC):
        if not os.path.exists(TABLEWEB):
            pytest.skip(f"{TABLEWEB} is not built (make release)")
        self.dir = tempfile.TemporaryDirectory(prefix="tableweb-page-")
        self.db = os.path.join(self.dir.name, "page.sqlite")
        if app is not None:
            fixture = os.path.join(self.dir.name, "app.json")
            with open(fixture, "w") as f:
                json.dump(app, f)
            subprocess.run([TABLEWEB, "import", fixture, "--db", self.db], check=True, timeout=120,
                           capture_output=True)
        self.public = public  # None: the page built into the binary
        self.port = 0  # the first start picks a free one; a restart takes the same
        self.server = None
        self.start()

    def start(self):
        self.server = TablewebServer(["--port", str(self.port)], self.public, self.db)  # the last --port wins
        self.port, self.url = self.server.port, self.server.url

    def stop(self):
        self.server.stop()

    def close(self):
        self.stop()
        self.dir.cleanup()


def serving(app):
    """A module-scoped `server` fixture: a Server with `app` (or what `app()` returns,
    for data too big to build at collection) imported, for the module and engine (each
    engine's tests start from the same data)."""
    @pytest.fixture(scope="module")
    def server(engine):
        s = Server(app() if callable(app) else app)
        yield s
        s.close()
    return server


@pytest.fixture(name="page")
def app_page(browser, server):
    """The module's app in a new browser context; a page error fails the test."""
    p = open_app(browser, server)
    yield p
    assert p.errors == []
    p.close_context()


def numbered_list(n):
    """A plain root list of `n` rows: ids r0…, texts "Row 0"…."""
    return {"title": "Numbers", "style": "plain", "sections": [{"id": "all", "rows": [
        {"id": f"r{i}", "text": f"Row {i}"} for i in range(n)]}]}


# --- Driving the page --------------------------------------------------------------

def open_app(browser, server, **options):
    """A new browser context (so a new session) on the app, once its first screen shows."""
    cm = new_page(browser, server.url, **options)
    page = cm.__enter__()
    page.wait_for_selector(".page .cell", timeout=20_000)  # a first screen of a big list, on a busy machine
    page.close_context = lambda: cm.__exit__(None, None, None)
    return page


def can_press(page, key):
    """Whether this engine's driver can send `key` (WebDriver's key table lacks a few)."""
    from webdriver_page import KEYS
    return page.engine == "chromium" or len(key) == 1 or key in KEYS


def cell(page, row_id):
    return page.locator(f".page:last-child .cell[data-id='{row_id}']")


def title(page):
    return page.locator(".nav-title").text_content()


def visible_ids(page):
    """Row ids of the top screen in list order (those in the DOM)."""
    return page.evaluate(f"() => ({SECTION_IDS})().flat()")


def reveal(page, row_id):
    """Scrolls down until the row is rendered: only rows near the viewport are in the DOM."""
    page.evaluate("() => document.querySelector('.page:last-child .scroller').scrollTop = 0")
    for _ in range(50):
        if cell(page, row_id).count():
            return cell(page, row_id)
        page.evaluate("() => { const s = document.querySelector('.page:last-child .scroller');"
                      " s.scrollTop += s.clientHeight; }")
        page.wait_for_timeout(50)
    raise AssertionError(f"row {row_id} not found")


def drill(page, row_id, expected_title):
    reveal(page, row_id).click()
    page.wait_for_function("t => document.querySelector('.nav-title').textContent === t", arg=expected_title)
    page.wait_for_selector(".page:only-child .cell")  # the slide has finished


def go_back(page, expected_title):
    page.wait_for_selector(".page:only-child")  # Back does nothing while a screen slides
    page.locator(".nav-back").click()
    page.wait_for_function("t => document.querySelector('.nav-title').textContent === t", arg=expected_title)
    page.wait_for_selector(".page:only-child .cell")


# A row's index in its section is its aria-posinset (the page keeps it current).
SECTION_IDS = """() => [...document.querySelectorAll('.page:last-child .section')].map((s) =>
    [...s.querySelectorAll('.cell[data-id]:not(.removing)')]
    .sort((a, b) => a.getAttribute('aria-posinset') - b.getAttribute('aria-posinset'))
    .map((n) => n.dataset.id))"""


def wait_for_sections(page, expected):
    """Waits until the top screen's rows, section by section, are `expected` (lists of ids)."""
    page.wait_for_function(f"e => JSON.stringify(({SECTION_IDS})()) === JSON.stringify(e)", arg=expected)


def steady_box(locator):
    """The element's box once it has stopped moving (rows glide to their new places after a
    change; a pointer put down mid-glide misses, more so on a loaded machine)."""
    box = engines.steady(locator.bounding_box, 100, 0.05)
    assert box, f"{locator} keeps moving"
    return box


def drag_handle(page, row_id, dy):
    """Drags the row's reorder handle `dy` pixels down (up if negative) and lets go."""
    handle = steady_box(cell(page, row_id).locator(".reorder"))
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + dy, steps=12)
    page.mouse.up()


def swipe(page, row_id, dx, steps=8):
    """Drags the row `dx` pixels sideways, from its far side as a thumb would (so that the
    pointer stays on the screen)."""
    box = steady_box(cell(page, row_id))
    y = box["y"] + box["height"] / 2
    x = box["x"] + (20 if dx > 0 else box["width"] - 20)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y + 1, steps=steps)
    page.mouse.up()
