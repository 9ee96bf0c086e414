"""Gapless resume: the test cuts the page's WebSocket (a proxy between the browser and the
server reads what the server sends and drops the line), someone else edits meanwhile, and the page comes back with `have`: `welcome` says
`caughtUp`, only diffs follow, and the screen stays as it was — the same page node, the
same scroll position, the open swipe still open — with the edits in it."""
import json
import urllib.request

from page_helpers import cell, browser, new_page, numbered_list, serving  # noqa: F401
from wsproxy import Proxy

APP = {**numbered_list(300), "editable": True}
server = serving(APP)


def post_insert(server, text):
    body = json.dumps({"type": "insert", "list": "L1", "section": "all", "after": "r299",
                       "row": {"text": text}, "ref": 1}).encode()
    request = urllib.request.Request(f"{server.url}api/commands", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert json.loads(response.read())["type"] == "ack"


def test_a_dropped_connection_resumes_without_a_screen(browser, server):
    proxy = Proxy(server.port)
    with new_page(browser, proxy.url) as page:
        frames = proxy.frames  # every message from the server, in order
        page.wait_for_selector(".page .cell")
        list_id = next(f for f in frames if f["type"] == "screen")["screen"]["list"]
        assert list_id == "L1"
        scroller = "document.querySelector('.page:last-child .scroller')"
        page.evaluate(f"() => {{ {scroller}.scrollTop = 2000; }}")
        page.wait_for_timeout(200)
        top = page.evaluate(f"() => {scroller}.scrollTop")
        assert top > 1000
        page.evaluate("() => { document.querySelector('.page').dataset.kept = 'yes'; }")
        visible = page.evaluate(
            "() => [...document.querySelectorAll('.page .cell[data-id]')].map((n) => n.dataset.id)")
        row = visible[len(visible) // 2]
        box = cell(page, row).bounding_box()  # from the middle: the right edge is the scrubber's
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x - 120, y + 1, steps=8)
        page.mouse.up()
        cell(page, row).locator(".swipe-actions button").wait_for()

        proxy.drop()
        for n in range(3):
            post_insert(server, f"While away {n}")
        welcomes = lambda: [i for i, f in enumerate(frames) if f["type"] == "welcome"]  # noqa: E731
        for _ in range(100):
            if len(welcomes()) == 2 and len([f for f in frames if f["type"] == "diff"]) == 3:
                break
            page.wait_for_timeout(50)
        assert proxy.connections == 2 and len(welcomes()) == 2
        welcome = frames[welcomes()[1]]
        assert welcome["resumed"] is True and welcome.get("caughtUp") is True
        # No screen: the three diffs (and who else is here, `presence`, once the session is back).
        after = [f["type"] for f in frames[welcomes()[1] + 1:] if f["type"] != "presence"]
        assert after == ["diff"] * 3
        page.locator(".banner").wait_for(state="hidden")
        assert page.evaluate("() => document.querySelector('.page').dataset.kept") == "yes"
        assert page.evaluate(f"() => {scroller}.scrollTop") == top
        assert cell(page, row).locator(".swipe-actions button").count() == 1

        # Editing mode survives a drop too.
        page.keyboard.press("Escape")  # closes the swipe
        page.locator(".nav-edit").click()
        page.wait_for_selector(".page.editing")
        proxy.drop()
        for _ in range(100):
            if len(welcomes()) == 3:
                break
            page.wait_for_timeout(50)
        assert frames[welcomes()[2]].get("caughtUp") is True
        assert not [f for f in frames[welcomes()[2]:] if f["type"] == "screen"]
        page.locator(".banner").wait_for(state="hidden")
        assert page.locator(".page.editing").count() == 1
        assert page.evaluate("() => document.querySelector('.page').dataset.kept") == "yes"
        page.evaluate(f"() => {{ {scroller}.scrollTop = {scroller}.scrollHeight; }}")
        page.locator(".cell", has_text="While away 2").wait_for()
        assert page.errors == []
    proxy.close()
