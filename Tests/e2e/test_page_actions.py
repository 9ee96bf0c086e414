"""Row actions in each engine: swipe actions on both edges (a full swipe performs the first),
the context menu by right click and by keyboard, and the chosen action reaching the server
and another viewer; viewers are refused."""
import asyncio
import json
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import TABLEWEB
from page_helpers import Server, browser, can_press, cell, drill, open_app, serving, swipe  # noqa: F401 (fixtures)
from test_access import grant, hello, until

ACTIONS = [
    {"id": "flag", "title": "Flag", "edge": "leading", "color": "orange", "effect": "flag"},
    {"id": "done", "title": "Done", "edge": "leading", "color": "green", "effect": "check"},
    {"id": "delete", "title": "Delete", "edge": "trailing", "color": "red", "effect": "delete"},
]
APP = {"title": "Home", "sections": [{"id": "home-s", "rows": [
    {"id": "tasks", "text": "Tasks", "children": {
        "title": "Tasks", "editable": True, "selection": "multiple", "actions": ACTIONS,
        "sections": [{"id": "tasks-s", "rows": [{"id": f"t{i}", "text": f"Task {i}"} for i in range(1, 7)]
                     + [{"id": "t7", "text": "Task 7", "actions": ["delete", "flag"]},  # its own, in its order
                        {"id": "t8", "text": "Task 8", "actions": []}]}]}},  # none
]}]}

server = serving(APP)


@pytest.fixture
def two(browser, server):
    pages = [open_app(browser, server) for _ in range(2)]
    for p in pages:
        drill(p, "tasks", "Tasks")
    yield pages
    for p in pages:
        assert p.errors == []
        p.close_context()


def checked(page, row_id):
    return cell(page, row_id).locator(".checkmark")


def flagged(page, row_id):
    return page.locator(f".page:last-child .cell.flagged[data-id='{row_id}']")


def test_swipe_reveals_each_edge_and_a_full_swipe_performs_the_first(two):
    a, b = two
    swipe(a, "t1", 120)  # rightwards: the leading actions, in order, in their colours
    buttons = cell(a, "t1").locator(".swipe-actions.leading button")
    buttons.first.wait_for()
    assert buttons.all_text_contents() == ["Flag", "Done"]
    assert buttons.first.evaluate("b => getComputedStyle(b).backgroundColor") == "rgb(201, 52, 0)"  # iOS's accessible orange: white text on it reaches 4.5:1
    buttons.nth(1).click()
    checked(b, "t1").wait_for()  # the server checked it, and the other viewer sees it
    checked(a, "t1").wait_for()
    swipe(a, "t2", -120)  # leftwards: the trailing ones
    assert cell(a, "t2").locator(".swipe-actions.trailing button").all_text_contents() == ["Delete"]
    a.locator(".nav-title").click()  # a tap elsewhere closes it
    cell(a, "t2").locator(".swipe-actions").wait_for(state="detached")
    assert a.locator(".cell.flagged").count() == 0
    swipe(a, "t3", 340, steps=12)  # a full swipe right: Flag, at once
    flagged(b, "t3").wait_for()
    assert "flagged" in flagged(b, "t3").get_attribute("aria-label")
    flagged(a, "t3").wait_for()
    swipe(a, "t3", 340, steps=12)  # and again: unflagged
    flagged(b, "t3").wait_for(state="detached")
    swipe(a, "t4", -340, steps=12)  # a full swipe left: Delete
    cell(b, "t4").wait_for(state="detached")
    cell(a, "t4").wait_for(state="detached")


def test_revealed_swipe_buttons_are_tab_stops(two):
    a, b = two
    swipe(a, "t2", -120)
    cell(a, "t2").locator(".swipe-actions button").wait_for()
    cell(a, "t2").focus()
    a.keyboard.press("Tab")
    assert a.evaluate("document.activeElement.textContent") == "Delete"
    a.keyboard.press("Escape")  # closes them, focus back on the row
    cell(a, "t2").locator(".swipe-actions").wait_for(state="detached")
    assert a.evaluate("document.activeElement.dataset.id") == "t2"
    assert cell(b, "t2").count() == 1
    swipe(a, "t1", 120)
    cell(a, "t1").locator(".swipe-actions button").first.wait_for()
    cell(a, "t1").focus()
    a.keyboard.press("Tab")
    a.keyboard.press("Tab")  # Tab moves through them
    assert a.evaluate("document.activeElement.textContent") == "Done"
    was = checked(a, "t1").count()  # the first test checked it
    a.keyboard.press("Space")  # performs it
    checked(b, "t1").wait_for(state="detached" if was else "visible")
    for state in ("visible", "detached"):  # Flag, then unflag, as the next tests expect
        swipe(a, "t3", 120)
        cell(a, "t3").locator(".swipe-actions button").first.wait_for()
        cell(a, "t3").focus()
        a.keyboard.press("Tab")
        a.keyboard.press("Enter")
        flagged(b, "t3").wait_for(state=state)
        # This page too has the change and has closed the buttons before the next swipe
        # (a swipe that lands while the row is refilled is lost: seen under load in CI).
        flagged(a, "t3").wait_for(state=state)
        cell(a, "t3").locator(".swipe-actions").wait_for(state="detached")
        a.wait_for_timeout(300)


def test_context_menu_by_right_click_and_by_keyboard(two):
    a, b = two
    cell(a, "t5").click(button="right")
    items = a.locator(".menu [role=menuitem]")
    items.first.wait_for()
    assert items.all_text_contents() == ["Flag", "Done", "Delete"]
    assert a.locator(".menu").get_attribute("role") == "menu"
    assert a.locator(".menu").get_attribute("aria-label") == "Task 5"
    assert a.evaluate("document.activeElement.textContent") == "Flag"
    a.keyboard.press("Escape")
    a.locator(".menu").wait_for(state="detached")
    assert a.evaluate("document.activeElement.dataset.id") == "t5"  # focus goes back to the row
    a.keyboard.press("Shift+F10")
    items.first.wait_for()
    a.keyboard.press("ArrowUp")  # wraps to the last
    assert a.evaluate("document.activeElement.textContent") == "Delete"
    a.keyboard.press("Enter")
    cell(b, "t5").wait_for(state="detached")
    cell(a, "t6").focus()
    a.keyboard.press("ContextMenu" if can_press(a, "ContextMenu") else "Shift+F10")  # WebDriver has no such key
    items.first.wait_for()
    a.keyboard.press("ArrowDown")
    a.keyboard.press("Enter")  # Done
    checked(b, "t6").wait_for()


def test_a_row_shows_only_its_own_actions(two):
    a, b = two
    swipe(a, "t7", 120)
    assert cell(a, "t7").locator(".swipe-actions.leading button").all_text_contents() == ["Flag"]
    a.locator(".nav-title").click()
    cell(a, "t7").locator(".swipe-actions").wait_for(state="detached")
    cell(a, "t7").click(button="right")
    a.locator(".menu [role=menuitem]").first.wait_for()
    assert a.locator(".menu [role=menuitem]").all_text_contents() == ["Delete", "Flag"]
    a.keyboard.press("Escape")
    for dx in (120, -120):  # t8 offers none: no buttons either way, no menu
        swipe(a, "t8", dx)
        assert cell(a, "t8").locator(".swipe-actions").count() == 0
        assert cell(a, "t8").locator(".content").evaluate("c => c.style.transform") in ("", "none")
    cell(a, "t8").click(button="right")
    cell(a, "t8").focus()
    a.keyboard.press("Shift+F10")
    a.wait_for_timeout(200)
    assert a.locator(".menu").count() == 0


# A list past the server's windowed threshold (10,000 rows), held as its first rows only.
MANY = {"id": "many", "text": "Many", "children": {
    "title": "Many", "actions": ACTIONS[:1], "cell": {"slots": [{"name": "t", "kind": "title"}]},
    "sections": [{"id": "many-s", "rows": [{"id": f"n{i}", "text": f"N {i}"} for i in range(10_001)]}]}}


def test_the_action_command_viewers_and_unknown_actions():
    s = Server({**APP, "sections": [{"id": "home-s", "rows": APP["sections"][0]["rows"] + [MANY]}]})
    try:
        editor_key, viewer_key = grant(s.db, "editor", "Ed"), grant(s.db, "viewer", "Vi")

        async def run():
            (editor, _), (viewer, _) = await hello(s.server, editor_key), await hello(s.server, viewer_key)
            for ws in (editor, viewer):
                home = await until(ws, "screen")
                await ws.send(json.dumps({"type": "tap", "list": home["screen"]["list"], "row": "tasks"}))
                screen = (await until(ws, "screen"))["screen"]
            assert [a["id"] for a in screen["actions"]] == ["flag", "done", "delete"]
            # The built-in effect goes out (an extension), so that the page shows it at once.
            assert screen["actions"][0]["effect"] == "flag"
            lst = screen["list"]
            await viewer.send(json.dumps({"type": "action", "list": lst, "row": "t7", "action": "flag", "ref": 1}))
            assert (await until(viewer, "error"))["code"] == "not_allowed"
            await editor.send(json.dumps({"type": "action", "list": lst, "row": "t7", "action": "done", "ref": 2}))
            refused = await until(editor, "error")  # t7 offers Delete and Flag only
            assert refused["code"] == "not_allowed" and refused["message"] == "row t7 does not offer action done"
            await editor.send(json.dumps({"type": "action", "list": lst, "row": "t7", "action": "pin", "ref": 2}))
            assert (await until(editor, "error"))["code"] == "not_found"
            await editor.send(json.dumps({"type": "action", "list": lst, "row": "t7", "ref": 3}))
            assert (await until(editor, "error"))["code"] == "bad_message"
            await editor.send(json.dumps({"type": "action", "list": lst, "row": "t7", "action": "flag", "ref": 4}))
            ack = await until(editor, "ack")
            assert ack["ref"] == 4 and ack["version"] == screen["version"] + 1
            diff = await until(viewer, "diff")
            assert diff["ops"][0]["row"]["flagged"] is True
            # A long list keeps its actions and cell layout; a flag far down reaches viewers.
            for ws in (editor, viewer):
                await ws.send(json.dumps({"type": "back"}))
                await until(ws, "screen")
                await ws.send(json.dumps({"type": "tap", "list": home["screen"]["list"], "row": "many"}))
                many = (await until(ws, "screen"))["screen"]
            assert many["sections"][0]["count"] == 10_001 and len(many["sections"][0]["rows"]) < 10_001
            assert [a["id"] for a in many["actions"]] == ["flag"] and many["cell"]["slots"][0]["name"] == "t"
            await editor.send(json.dumps({"type": "action", "list": many["list"], "row": "n9000", "action": "flag", "ref": 5}))
            assert (await until(editor, "ack"))["ref"] == 5
            await until(viewer, "diff")
        # Playwright's loop runs in this thread: the socket test gets one of its own.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, run()).result()
    finally:
        s.close()


def test_the_headless_client_performs_a_row_action_by_its_title(server):
    def client(script):
        return subprocess.run([TABLEWEB, "client", server.server.ws_url, "--json"], input=script,
                              capture_output=True, text=True, timeout=20)
    result = client('tap Tasks\nwait 300\naction Flag "Task 3"\nwait 300\n')
    assert result.returncode == 0, result.stderr
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    assert any(m["type"] == "ack" for m in messages)
    ops = [op for m in messages if m["type"] == "diff" for op in m["ops"]]
    assert any(op.get("row", {}).get("id") == "t3" and op["row"].get("flagged") is True for op in ops), ops
    refused = client("tap Tasks\nwait 300\naction Pin t1\n")
    assert "no action Pin here (Flag, Done, Delete)" in refused.stderr
    refused = client("tap Tasks\nwait 300\naction Done t7\n")  # t7 offers its own
    assert "Task 7 does not offer Done (Delete, Flag)" in refused.stderr
    refused = client("tap Tasks\nwait 300\naction Flag t8\n")
    assert "Task 8 does not offer Flag (it offers none)" in refused.stderr
