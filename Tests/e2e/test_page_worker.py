"""The page's service worker (Public/sw.js, built by the EmbedPage plugin): a second visit
is answered from the browser's cache, so that it waits only for the WebSocket; a page the
worker answered talks to the server as any other; turning it off (`--no-page-worker`)
reaches the next load. Chromium, the page built into the binary, behind a proxy that
lists the requests that reach the server."""
import json
import os
import re
import time
import urllib.request

import pytest

import engines
from conftest import TablewebServer
from delayproxy import DelayProxy
from page_helpers import PHONE, PUBLIC, TIMEOUT_MS, Server
from test_http_commands import post

HTML = "GET / HTTP/1.1"
APP = {"title": "Home", "editable": True, "sections": [{"id": "home", "rows": [
    {"id": "tasks", "text": "Tasks"}, {"id": "mail", "text": "Mail"}]}]}


@pytest.fixture(scope="module")
def chromium():
    if "chromium" not in engines.ENGINES:
        pytest.skip("TABLEWEB_ENGINES leaves Chromium out")
    b = engines.launch("chromium")
    yield b
    b.close()


@pytest.fixture
def served():
    s = Server(APP, public=None)  # the page built in
    s.proxy = DelayProxy(s.port, one_way_ms=0)
    yield s
    s.proxy.close()
    s.close()


def restart(served, *args):
    served.stop()
    served.server = TablewebServer(["--port", str(served.port), *args], None, served.db)


def get(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode(), {k.lower(): v for k, v in response.getheaders()}


def visit(context, served):
    """Opens the page in a new tab; returns it and the requests its load sent the server."""
    served.proxy.requests.clear()
    page = context.new_page()
    page.lists = []  # the screens' list ids, as they arrive
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: page.lists.append(
        json.loads(f)["screen"]["list"]) if '"type":"screen"' in f else None))
    page.goto(served.proxy.url)
    page.wait_for_selector(".page .cell[data-id=tasks]")
    return page, list(served.proxy.requests)


def installed(page):
    """Waits until the page's worker is active, its cache filled."""
    return page.evaluate("""Promise.race([navigator.serviceWorker.ready.then((r) => r.active.scriptURL),
        new Promise((resolve) => setTimeout(() => resolve('no worker'), 5000))])""")


def wait_for_caches(page, count):
    """Waits until the origin has `count` caches (the worker's, one a page build)."""
    deadline = time.monotonic() + 15
    while page.evaluate("caches.keys().then((k) => k.length)") != count:
        assert time.monotonic() < deadline, page.evaluate("caches.keys()")
        page.wait_for_timeout(100)


def shows_live_data(served, page, text):
    status, answer = post(served.server, {"type": "update", "list": page.lists[0], "row": "tasks", "text": text})
    assert status == 200 and answer["type"] == "ack", answer
    page.wait_for_function("t => document.querySelector('.cell[data-id=tasks] .text').textContent === t",
                           arg=text)


def new_context(chromium):
    context = chromium.new_context(viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    return context


def test_a_second_visit_is_answered_without_asking_for_the_html(chromium, served):
    context = new_context(chromium)
    try:
        first, requests = visit(context, served)
        assert HTML in requests
        assert installed(first).endswith("/sw.js")
        first.close()
        second, requests = visit(context, served)
        assert HTML not in requests and not [r for r in requests if re.match(r"GET /(page|style)-", r)], requests
        assert second.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
        shows_live_data(served, second, "Tasks, live")
        assert second.evaluate("performance.getEntriesByType('navigation')[0].transferSize") == 0
    finally:
        context.close()


def test_turning_the_worker_off_reaches_the_next_load_and_on_again_the_one_after(chromium, served):
    context = new_context(chromium)
    try:
        first, _ = visit(context, served)
        assert installed(first).endswith("/sw.js")
        first.close()
        # The server comes back with another sw.js (as a new page build brings one).
        restart(served, "--no-page-worker")
        old, requests = visit(context, served)
        assert HTML not in requests, requests  # the cached page, from the worker kept
        shows_live_data(served, old, "Tasks, from the kept page")  # it talks to the new server
        # The browser's own check of sw.js on that visit finds the new worker, which drops the cache.
        wait_for_caches(old, 0)
        old.close()
        fresh, requests = visit(context, served)
        assert HTML in requests, requests
        assert fresh.evaluate("navigator.serviceWorker.controller") is None or \
            fresh.evaluate("caches.keys().then((k) => k.length)") == 0
        fresh.close()
        restart(served)  # on again: the next load installs it, the one after is answered by it
        again, requests = visit(context, served)
        assert HTML in requests, requests
        wait_for_caches(again, 1)
        again.close()
        cached, requests = visit(context, served)
        assert HTML not in requests, requests
        shows_live_data(served, cached, "Tasks, on again")
    finally:
        context.close()


def test_the_worker_names_this_build_and_the_policy_allows_only_it(served):
    url = served.server.url
    html, headers = get(url)
    worker, worker_headers = get(url + "sw.js")
    assert worker_headers["cache-control"] == "no-cache"
    assert worker_headers["content-type"].startswith("application/javascript") or \
        worker_headers["content-type"].startswith("text/javascript"), worker_headers
    files = json.loads(re.search(r"^const FILES = (\{.*\});$", worker, re.M).group(1).replace("html:", '"html":')
                       .replace("assets:", '"assets":'))
    assert files["html"] == headers["etag"]
    assert sorted(files["assets"]) == sorted(re.findall(r'(?:src|href)="((?:page|style)-[0-9a-f]{12}\.(?:js|css))"', html))
    assert re.search(r'^const BUILD = "[0-9a-f]{12}";$', worker, re.M)
    assert "worker-src 'self';" in headers["content-security-policy"]
    restart(served, "--no-page-worker")
    with open(os.path.join(PUBLIC, "sw.js"), encoding="utf-8") as f:
        assert get(served.server.url + "sw.js")[0] == f.read()
    assert get(served.server.url)[0] == html  # the page itself is the same


def test_a_folder_without_a_worker_still_answers_one_that_caches_nothing(tmp_path):
    folder = tmp_path / "page"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html><title>mine</title>")
    s = Server(public=str(folder))
    try:
        worker, _ = get(s.url + "sw.js")
        with open(os.path.join(PUBLIC, "sw.js"), encoding="utf-8") as f:
            assert worker == f.read()
    finally:
        s.close()
