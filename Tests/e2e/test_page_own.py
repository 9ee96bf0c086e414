"""A person's own changes show at once, in each engine: the page applies its own command
over the screen the server sent and shows it before the server answers (the tests hold
every server message back in a proxy), rebases it over others' diffs, and takes it back
when the server refuses it. The end state is always the server's."""
import contextlib
import json
import subprocess

import pytest

from conftest import TABLEWEB
from delayproxy import DelayProxy
from page_helpers import (  # noqa: F401 (fixtures)
    SECTION_IDS, Server, browser, cell, drill, open_app, wait_for_sections)

APP = {"title": "Home", "sections": [{"id": "home", "rows": [
    {"id": "sw", "text": "Wi-Fi", "switch": False},
    {"id": "tone", "text": "Tone", "children": {
        "title": "Tone", "selection": "single", "sections": [{"id": "tones", "rows": [
            {"id": "marimba", "text": "Marimba", "checked": True}, {"id": "radar", "text": "Radar"}]}]}},
    {"id": "notes", "text": "Notes", "children": {
        "title": "Notes", "editable": True, "sections": [{"id": "notes-s", "rows": [
            {"id": f"n{i}", "text": f"Note {i}"} for i in range(1, 7)]}]}},
]}]}


@pytest.fixture(scope="module")
def server(engine):
    s = Server(APP)
    s.proxy = DelayProxy(s.port, one_way_ms=0)
    yield s
    s.proxy.close()
    s.close()


class Behind:
    """The page, opened through the proxy: `url` for open_app."""
    def __init__(self, server):
        self.url = server.proxy.url


@contextlib.contextmanager
def held(server):
    """Holds every message from the server (acks, diffs) until the block ends."""
    server.proxy.paused = True
    try:
        yield
    finally:
        server.proxy.paused = False


def exported(server, list_title):
    """The row texts of the list titled `list_title`, in order, as the server's database has them."""
    data = json.loads(subprocess.run([TABLEWEB, "export", "--db", server.db], check=True, capture_output=True,
                                     text=True, timeout=60).stdout)

    def find(screen):
        if screen.get("title") == list_title:
            return screen
        for sec in screen.get("sections", []):
            for row in sec.get("rows", []):
                if "children" in row and (found := find(row["children"])):
                    return found
    return [r["text"] for sec in find(data)["sections"] for r in sec["rows"]]


def texts(page):
    return page.evaluate(f"""() => ({SECTION_IDS})().flat().map((id) =>
        document.querySelector(`.page:last-child .cell[data-id="${{id}}"] .text`).textContent)""")


def test_own_edits_show_before_the_server_answers(browser, server):
    page = open_app(browser, Behind(server))
    try:
        with held(server):
            cell(page, "sw").locator(".switch").click()
            assert cell(page, "sw").locator(".switch").get_attribute("aria-checked") == "true"
        drill(page, "tone", "Tone")
        with held(server):
            cell(page, "radar").click()
            cell(page, "radar").locator(".checkmark").wait_for(timeout=500)
            assert cell(page, "marimba").locator(".checkmark").count() == 0
        page.locator(".nav-back").click()
        page.wait_for_selector(".page:only-child .cell")
        drill(page, "notes", "Notes")
        page.locator(".nav-edit").click()  # editing mode: shown at once already
        assert page.locator(".nav-edit").text_content() == "Done"
        with held(server):
            cell(page, "n1").locator(".minus").click()
            cell(page, "n1").locator(".delete-confirm").click()
            cell(page, "n1").wait_for(state="detached", timeout=1000)
            cell(page, "n2").click()
            page.locator(".tb-rename").click()
            page.locator(".alert input").fill("Two, renamed")
            page.keyboard.press("Enter")
            cell(page, "n2").locator(".text", has_text="Two, renamed").wait_for(timeout=500)
            cell(page, "n2").click()  # unpicked again
            page.locator(".tb-add").click()
            page.locator(".alert input").fill("Added")
            page.keyboard.press("Enter")
            page.locator(".cell .text", has_text="Added").wait_for(timeout=500)
            cell(page, "n3").focus()
            page.keyboard.press("Alt+ArrowDown")
            wait_for_sections(page, [["n2", "n4", "n3", "n5", "n6", page.evaluate(
                "document.querySelector('.cell[data-id^=pending-]').dataset.id")]])
            shown = texts(page)
            assert shown == ["Two, renamed", "Note 4", "Note 3", "Note 5", "Note 6", "Added"]
        page.wait_for_function("() => !document.querySelector('.cell[data-id^=pending-]')")
        page.wait_for_timeout(300)
        assert texts(page) == shown == exported(server, "Notes")  # the server's, and nothing moved
        assert page.locator(".page:last-child .cell .text", has_text="Added").count() == 1
    finally:
        page.close_context()


def test_a_refused_command_rolls_back_with_its_error(browser, engine):
    s = Server(APP)
    s.proxy = DelayProxy(s.port, one_way_ms=0)
    viewer = subprocess.run([TABLEWEB, "access", "grant", "--role", "viewer", "--name", "Vi", "--db", s.db],
                            check=True, capture_output=True, text=True, timeout=20).stdout.splitlines()[-1]
    page = open_app(browser, type("Link", (), {"url": f"{s.proxy.url}#access={viewer}"}))
    try:
        switch = cell(page, "sw").locator(".switch")
        with held(s):
            switch.click()
            assert switch.get_attribute("aria-checked") == "true"  # shown at once
        page.locator(".toast", has_text="viewer").wait_for()  # the server's refusal, shown
        page.wait_for_function("() => document.querySelector('.cell[data-id=sw] .switch').ariaChecked === 'false'")
    finally:
        page.close_context()
        s.proxy.close()
        s.close()


class RawClient:
    """A WebSocket client of its own (Python's `websockets`), on its own thread, that edits
    the notes list as the pages do: renames, inserts, deletes and moves rows it has seen."""

    def __init__(self, server, rows):
        import asyncio
        import random
        import threading
        self.server, self.rows, self.random = server, list(rows), random.Random(7)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.ws = self.call(self._open())

    def call(self, coroutine):
        import asyncio
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(10)

    async def _open(self):
        from websockets.asyncio.client import connect
        ws = await connect(self.server.server.ws_url, subprotocols=["tableweb.v1"])
        await ws.send(json.dumps({"type": "hello", "session": None}))
        while (message := json.loads(await ws.recv()))["type"] != "screen":
            pass
        await ws.send(json.dumps({"type": "tap", "list": message["screen"]["list"], "row": "notes"}))
        while (message := json.loads(await ws.recv()))["type"] != "screen":
            pass
        self.list = message["screen"]["list"]
        self.section = message["screen"]["sections"][0]["id"]
        self.reader = self.loop.create_task(self._drain(ws))
        return ws

    async def _drain(self, ws):
        async for _ in ws:  # diffs and answers: what the server says is checked in the export
            pass

    def edit(self, n):
        r = self.random
        row = r.choice(self.rows)
        command = r.choice([
            {"type": "update", "row": row, "text": f"Raw {n}"},
            {"type": "insert", "section": self.section, "after": None, "row": {"text": f"Raw new {n}"}},
            {"type": "move", "row": row, "section": self.section, "after": r.choice(self.rows)},
            {"type": "delete", "rows": [row]},
        ])
        self.call(self.ws.send(json.dumps({**command, "list": self.list, "ref": n})))

    def close(self):
        self.call(self.ws.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def random_edit(page, r, n):
    """One edit by keyboard on a random row of the Notes list, in editing mode."""
    ids = [i for i in page.evaluate(f"() => ({SECTION_IDS})().flat()") if not i.startswith("pending-")]
    kind = r.choice(["rename", "delete", "move", "add"] if ids else ["add"])
    if kind == "add":
        page.locator(".tb-add").click()
        page.locator(".alert input").fill(f"New {n}")
        page.keyboard.press("Enter")
        return
    cell(page, r.choice(ids)).focus()
    if kind == "rename":
        page.keyboard.press("F2")
        try:  # a diff may have taken the row (and the focus) away between the two
            page.locator(".alert input").wait_for(timeout=1000)
        except Exception:
            return
        page.locator(".alert input").fill(f"Renamed {n}")
        page.keyboard.press("Enter")
    elif kind == "delete":
        page.keyboard.press("Delete")
    else:
        page.keyboard.press(r.choice(["Alt+ArrowUp", "Alt+ArrowDown"]))


def test_random_edits_from_two_pages_and_a_raw_client_end_equal_to_the_server(browser, server):
    import random
    r = random.Random(22)
    slow = DelayProxy(server.port, one_way_ms=40)  # so that the pages' own changes overlap others'
    pages = [open_app(browser, type("Slow", (), {"url": slow.url})) for _ in range(2)]
    raw = RawClient(server, [f"n{i}" for i in range(1, 7)])
    try:
        for page in pages:
            drill(page, "notes", "Notes")
            page.locator(".nav-edit").click()
            page.locator(".toolbar").wait_for()
        for n in range(12):
            for k, page in enumerate(pages):
                random_edit(page, r, f"{n}{'ab'[k]}")
            raw.edit(n)
        for page in pages:
            page.wait_for_function("() => !document.querySelector('.cell[data-id^=pending-]')", timeout=15_000)
        page.wait_for_timeout(1000)  # every answer and diff in
        expected = exported(server, "Notes")
        for page in pages:
            assert texts(page) == expected
    finally:
        raw.close()
        for page in pages:
            page.close_context()
        slow.close()


def count(server, text):
    return exported(server, "Notes").count(text)


def wait_until(condition, page, timeout_s=10):
    import time
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(50)


def add(page, text):
    page.locator(".tb-add").click()
    page.locator(".alert input").fill(text)
    page.keyboard.press("Enter")


def test_edits_made_offline_arrive_once(browser, server):
    proxy = DelayProxy(server.port, one_way_ms=0)
    page = open_app(browser, type("Own", (), {"url": proxy.url}))
    try:
        drill(page, "notes", "Notes")
        page.locator(".nav-edit").click()
        page.locator(".toolbar").wait_for()
        # Offline: the edits show at once, greyed, and are sent once the line is back.
        proxy.offline = True
        proxy.drop()
        page.locator(".banner").wait_for()
        add(page, "Made offline")
        made = page.locator(".page:last-child .cell", has_text="Made offline")
        made.wait_for(timeout=1000)
        assert "pending" in made.get_attribute("class")
        proxy.offline = False
        page.locator(".banner").wait_for(state="hidden", timeout=10_000)
        page.wait_for_function("() => !document.querySelector('.cell[data-id^=pending-], .cell.pending')")
        wait_until(lambda: count(server, "Made offline") == 1, page)
        # A lost ack: the server applied the insert, its answer went down with the line; sent
        # again after the resume, it is answered and not applied twice.
        proxy.paused = True
        add(page, "Ack lost")
        wait_until(lambda: count(server, "Ack lost") == 1, page)
        proxy.drop()
        proxy.paused = False
        page.wait_for_function("() => !document.querySelector('.cell[data-id^=pending-]')", timeout=10_000)
        page.wait_for_timeout(500)
        assert count(server, "Ack lost") == 1
        assert page.locator(".page:last-child .cell .text", has_text="Ack lost").count() == 1
        # A reload while offline keeps what was not sent yet.
        proxy.offline = True
        proxy.drop()
        page.locator(".banner").wait_for()
        add(page, "Before reload")
        page.locator(".page:last-child .cell", has_text="Before reload").wait_for(timeout=1000)
        page.reload()
        proxy.offline = False
        page.locator(".page:last-child .cell .text", has_text="Before reload").wait_for(timeout=10_000)
        wait_until(lambda: count(server, "Before reload") == 1, page)
        page.wait_for_timeout(500)
        assert count(server, "Before reload") == 1 and count(server, "Made offline") == 1
    finally:
        page.close_context()
        proxy.close()


def test_a_push_slides_in_at_once_titled_after_the_row_and_fills_in(browser, server):
    page = open_app(browser, Behind(server))
    try:
        with held(server):
            cell(page, "notes").click()
            page.wait_for_function("() => document.querySelector('.nav-title').textContent === 'Notes'", timeout=500)
            assert page.locator(".nav-back .label").text_content() == "Home"
            page.wait_for_selector(".page:only-child:not(:has(.cell))", timeout=2000)  # slid in, empty
        page.wait_for_selector(".page:only-child .cell")  # filled in when the screen came
        assert page.locator(".page").count() == 1
        page.locator(".nav-back").click()
        page.wait_for_selector(".page:only-child .cell[data-id=sw]")
    finally:
        page.close_context()
