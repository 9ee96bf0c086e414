"""Frames the page cannot use are said, not dropped in silence: a proxy between the browser
and the server slips in frames the server would never send — one that is not JSON, one
that is JSON but no message, a diff that does not apply — and the page logs each with
console.warn (the reason and the frame's type; in Chromium the test reads the console) and
keeps the lines in `window.tablewebWarnings` (read in every engine). A diff that does not
apply also asks for the screen again, which the server sends."""
import json

from page_helpers import browser, new_page, numbered_list, serving  # noqa: F401
from wsproxy import Proxy

server = serving(numbered_list(30))

WARNINGS = "() => window.tablewebWarnings ?? []"


def opened(page, proxy):
    """Waits for the first screen; returns it as the server sent it."""
    page.wait_for_selector(".page .cell")
    return next(f for f in proxy.frames if f["type"] == "screen")


def console_warnings(page):
    lines = []
    if page.engine == "chromium":
        page.on("console", lambda m: m.type == "warning" and lines.append(m.text))
    return lines


def wait_for_warnings(page, n):
    for _ in range(100):
        if len(page.evaluate(WARNINGS)) >= n:
            break
        page.wait_for_timeout(50)
    return page.evaluate(WARNINGS)


def test_frames_that_are_not_messages_are_logged_with_their_type(browser, server):
    proxy = Proxy(server.port)
    try:
        with new_page(browser, proxy.url) as page:
            logged = console_warnings(page)
            opened(page, proxy)
            assert page.evaluate(WARNINGS) == []
            proxy.inject("{not json")
            proxy.inject("[1, 2]")
            proxy.inject(b"\x00\x01", binary=True)
            lines = wait_for_warnings(page, 3)
            assert len(lines) == 3, lines
            assert lines[0].startswith("tableweb: dropped a frame that is not JSON (frame type text): SyntaxError")
            assert lines[1] == "tableweb: dropped a frame that is not a JSON object (frame type text): [1, 2]"
            assert lines[2].startswith("tableweb: dropped a frame that is not JSON (frame type binary): SyntaxError")
            if page.engine == "chromium":
                assert logged == lines
            assert page.locator(".page .cell[data-id='r0']").is_visible()  # the page goes on
    finally:
        proxy.close()


def test_a_diff_that_does_not_apply_is_logged_and_the_screen_asked_for_again(browser, server):
    proxy = Proxy(server.port)
    try:
        with new_page(browser, proxy.url) as page:
            logged = console_warnings(page)
            screen = opened(page, proxy)["screen"]
            version = screen["version"]
            proxy.inject(json.dumps({"type": "diff", "list": screen["list"], "from": version, "to": version + 1,
                                     "ops": [{"op": "delete", "at": [7, 0]}]}))
            lines = wait_for_warnings(page, 1)
            assert lines == [f"tableweb: could not apply the diff of list {screen['list']} from version {version} "
                             f"to {version + 1}; asking for the screen again (frame type diff): "
                             "RangeError: no row at [7,0]"]
            if page.engine == "chromium":
                assert logged == lines
            for _ in range(100):  # the reload's answer: the screen again
                if len([f for f in proxy.frames if f["type"] == "screen"]) == 2:
                    break
                page.wait_for_timeout(50)
            assert len([f for f in proxy.frames if f["type"] == "screen"]) == 2
            assert page.locator(".page .cell[data-id='r0']").is_visible()
    finally:
        proxy.close()
