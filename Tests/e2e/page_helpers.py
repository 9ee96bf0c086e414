"""Fixtures and helpers shared by the page's browser tests (test_page*.py)."""
import contextlib
import functools
import http.server
import os
import threading

import pytest
from playwright.sync_api import sync_playwright

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PUBLIC = os.path.join(ROOT, "Public")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TIMEOUT_MS = 5000


@pytest.fixture(scope="session")
def chromium():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@contextlib.contextmanager
def new_page(browser, url=None, **context_options):
    """A page in its own context (its own localStorage), with a bounded timeout."""
    options = {"viewport": {"width": 390, "height": 700}, **context_options}
    context = browser.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    try:
        if url:
            page.goto(url)
        yield page
    finally:
        context.close()


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
