"""A list's history from the outside (the `history` extension): `tableweb history` (text and
--json), `tableweb client`'s `history` line, and the page's History screen, live while
another client edits."""
import asyncio
import json
import subprocess
import threading

import pytest
from websockets.asyncio.client import connect

from conftest import TABLEWEB
from page_helpers import Server, cell, browser, new_page  # noqa: F401 (fixtures)
from test_protocol import import_fixture

TIMEOUT = 5
APP = {
    "id": "Lhome", "title": "Home", "sections": [{"id": "home-s", "rows": [
        {"id": "tasks", "text": "Tasks", "children": {
            "id": "Ltasks", "title": "Tasks", "editable": True, "sections": [{"id": "tasks-s", "rows": [
                {"id": "t1", "text": "Milk"}, {"id": "t2", "text": "Eggs"}, {"id": "t3", "text": "Tea"}]}]}},
    ]}],
}


def run(*args, **kwargs):
    return subprocess.run([TABLEWEB, *args], capture_output=True, text=True, timeout=30, **kwargs)


def grant(db, role, name):
    result = run("access", "grant", "--role", role, "--name", name, "--db", db)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()[-1]


async def edit(server, credential, *commands, on=("Lhome", "Rtasks")):
    """Says hello with `credential`, opens Tasks and sends `commands`, each acked."""
    async with connect(server.ws_url, subprotocols=["tableweb.v1"], origin=server.origin,
                       open_timeout=TIMEOUT) as ws:
        await ws.send(json.dumps({"type": "hello", "session": None, "access": credential}))
        await ws.send(json.dumps({"type": "tap", "list": on[0], "row": on[1]}))
        for ref, command in enumerate(commands, 1):
            await ws.send(json.dumps({**command, "ref": ref}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if message.get("ref") == ref:
                    assert message["type"] == "ack", message
                    break


def elsewhere(coroutine):
    """Runs `coroutine` to its end on a thread of its own (Playwright's loop holds this one)."""
    errors = []
    thread = threading.Thread(target=_run, args=(coroutine, errors))
    thread.start()
    thread.join(30)
    assert not errors, errors


def _run(coroutine, errors):
    try:
        asyncio.run(coroutine)
    except Exception as error:  # noqa: BLE001 (reported to the test)
        errors.append(error)


@pytest.fixture
def edited(tmp_path, launch_server):
    """A database with Ann's delete and rename of Tasks' rows, made through a real server."""
    db = str(tmp_path / "t.sqlite")
    import_fixture(TABLEWEB, db)
    ann = grant(db, "editor", "Ann")
    server = launch_server(db=db)
    asyncio.run(edit(server, ann,
                     {"type": "delete", "list": "Ltasks", "rows": ["Reggs"]},
                     {"type": "update", "list": "Ltasks", "row": "Rtea", "text": "Green tea"}))
    return db, server, ann


def test_history_prints_entries_newest_first_as_text_and_json(edited):
    db, _, _ = edited
    text = run("history", "Ltasks", "--db", db)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].endswith(' · Ann renamed "Tea" to "Green tea"'), lines
    assert lines[1].endswith(' · Ann deleted "Eggs"'), lines
    assert lines[-1].endswith(" · The list was imported"), lines
    assert lines[0].split(" · ")[0] in ("just now",) or lines[0].split(" · ")[0].endswith(" ago")

    as_json = run("history", "Ltasks", "--db", db, "--json", "--count", "2")
    assert as_json.returncode == 0, as_json.stderr
    entries = json.loads(as_json.stdout)
    assert [list(e) for e in entries] == [["id", "version", "at", "author", "kind", "rows", "summary"]] * 2
    assert [(e["author"], e["kind"], e["rows"]) for e in entries] == [
        ("Ann", "update", ["Rtea"]), ("Ann", "delete", ["Reggs"])]
    assert entries[0]["id"] > entries[1]["id"] and entries[0]["version"] == entries[1]["version"] + 1
    assert entries[0]["at"].endswith("Z") and "T" in entries[0]["at"]

    one = run("history", "Ltasks", "--db", db, "--count", "1")
    assert len(one.stdout.splitlines()) == 2 and "--count" in one.stdout.splitlines()[1]


def test_history_refuses_an_unknown_list_and_a_count_over_200(edited):
    db, _, _ = edited
    unknown = run("history", "Lnowhere", "--db", db)
    assert unknown.returncode != 0 and "no list Lnowhere" in unknown.stderr
    over = run("history", "Ltasks", "--db", db, "--count", "201")
    assert over.returncode != 0 and "--count must be between 1 and 200" in over.stderr


def test_client_history_shows_the_entries_and_new_ones_live(edited):
    _, server, ann = edited
    bob = grant(edited[0], "editor", "Bob")
    client = subprocess.Popen([TABLEWEB, "client", server.ws_url, "--access", ann],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    # The history first; then Bob's edit arrives while the client waits.
    client.stdin.write("tap Tasks\nhistory\n")
    client.stdin.flush()
    shown = []
    while not shown or not shown[-1].rstrip().endswith("The list was imported"):
        shown.append(client.stdout.readline())
        assert shown[-1], "".join(shown)
    asyncio.run(edit(server, bob, {"type": "delete", "list": "Ltasks", "rows": ["Rmilk"]}))
    client.stdin.write("wait 1000\nquit\n")
    client.stdin.flush()
    out, err = client.communicate(timeout=30)
    out = "".join(shown) + out
    history = [line for line in out.splitlines() if line.startswith("history: ")]
    assert history[0].endswith('Ann renamed "Tea" to "Green tea"'), out
    assert history[-2].endswith("The list was imported"), out
    assert history[-1].endswith('Bob deleted "Milk"'), out  # live, after the page asked for


@pytest.fixture(scope="module")
def server(engine):  # one per engine: each starts from the same data
    s = Server(APP)
    s.ann = grant(s.db, "editor", "Ann")
    s.bob = grant(s.db, "editor", "Bob")
    s.ws_url = s.server.ws_url
    s.origin = s.server.origin
    yield s
    s.close()


def test_the_history_screen_names_who_did_what_and_updates_live(browser, server):
    cm = new_page(browser, f"{server.url}#access={server.ann}", bypass_csp=False)
    page = cm.__enter__()
    try:
        page.wait_for_selector(".page .cell")
        assert page.text_content(".nav-history") == "History"
        cell(page, "tasks").click()
        page.wait_for_selector(".page:only-child .cell[data-id='t1']")
        page.locator(".nav-history").click()
        page.wait_for_selector(".history-screen .history-list li")
        assert page.text_content(".history-screen .nav-title") == "History"
        first = page.locator(".history-list li").first
        assert first.locator(".history-summary").text_content() == "The list was imported"
        # Bob deletes Eggs from another client: the entry arrives while the screen shows.
        elsewhere(edit(server, server.bob, {"type": "delete", "list": "Ltasks", "rows": ["t2"]},
                       on=("Lhome", "tasks")))
        page.wait_for_function(
            "() => document.querySelector('.history-list li .history-summary').textContent"
            " === 'Bob deleted \"Eggs\"'")
        when = page.text_content(".history-list li .history-when")
        assert when.startswith(" · ") and ("now" in when or "second" in when), when
        assert page.locator(".history-list li").count() == 2
        # Back returns to the list, which shows the delete too.
        page.locator(".history-screen .nav-back").click()
        page.wait_for_selector(".history-screen", state="detached")
        page.wait_for_selector(".page .cell[data-id='t2']", state="detached")
        assert page.evaluate("() => window.pwned") is None
    finally:
        cm.__exit__(None, None, None)



def test_older_entries_load_on_scroll_and_more(browser, engine):
    s = Server(APP)
    try:
        ann = grant(s.db, "editor", "Ann")
        s.ws_url, s.origin = s.server.ws_url, s.server.origin
        elsewhere(edit(s, ann, *({"type": "update", "list": "Ltasks", "row": "t1", "text": f"Milk {n}"}
                                 for n in range(1, 61)), on=("Lhome", "tasks")))
        cm = new_page(browser, f"{s.url}#access={ann}", bypass_csp=False)
        page = cm.__enter__()
        try:
            page.wait_for_selector(".page .cell")
            cell(page, "tasks").click()
            page.wait_for_selector(".page:only-child .cell[data-id='t1']")
            page.locator(".nav-history").click()
            page.wait_for_function("() => document.querySelectorAll('.history-list li').length === 50")
            assert page.text_content(".history-list li .history-summary") == 'Ann renamed "Milk 59" to "Milk 60"'
            assert page.is_visible(".history-more")
            page.evaluate("() => { const s = document.querySelector('.history-scroll'); s.scrollTop = s.scrollHeight; }")
            page.wait_for_function("() => document.querySelectorAll('.history-list li').length === 61")
            last = page.locator(".history-list li .history-summary").last.text_content()
            assert last == "The list was imported"
            assert not page.is_visible(".history-more")
        finally:
            cm.__exit__(None, None, None)
    finally:
        s.close()
