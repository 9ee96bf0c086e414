"""Presence on the page, in Chromium, with two people on one list: each sees the other's
initials in the navigation bar, a swipe on one page marks the row on the other (initials,
a tint, a polite announcement), and closing a page takes its initials away."""
import json

import pytest

from page_helpers import browser, cell, drill, new_page, serving, swipe  # noqa: F401 (fixtures)
from test_page_actions import APP

server = serving(APP)


def open_named(browser, server, name):
    """A new context (so a new session) whose page says `name` in its hello."""
    cm = new_page(browser)
    page = cm.__enter__()
    page.add_init_script(f"localStorage.setItem('tableweb.name', {json.dumps(name)})")
    page.goto(server.url)
    page.wait_for_selector(".page .cell", timeout=20_000)
    page.close_context = lambda: cm.__exit__(None, None, None)
    return page


def dots(page):
    return page.locator(".nav-presence .presence-dot")


def test_who_is_here_and_what_they_swipe(browser, server):
    if getattr(browser, "name", "chromium") != "chromium":
        pytest.skip("add_init_script is Playwright's (Chromium)")
    ann = open_named(browser, server, "Ann Lee")
    bo = open_named(browser, server, "Bo")
    try:
        for page in (ann, bo):
            drill(page, "tasks", "Tasks")
        dots(bo).first.wait_for()
        bo.wait_for_function("() => document.querySelector('.nav-presence').textContent === 'AL'")
        assert dots(bo).first.get_attribute("title") == "Ann Lee"
        ann.wait_for_function("() => document.querySelector('.nav-presence').textContent === 'B'")
        assert bo.locator(".presence-live").get_attribute("aria-live") == "polite"

        swipe(ann, "t2", -120)  # the trailing actions revealed: Ann is swiping Task 2
        cell(ann, "t2").locator(".swipe-actions button").first.wait_for()
        mark = cell(bo, "t2").locator(".presence-mark")
        mark.wait_for()
        assert mark.text_content() == "AL"
        assert "other-activity" in cell(bo, "t2").get_attribute("class")
        bo.wait_for_function(
            "() => document.querySelector('.presence-live').textContent === 'Ann Lee is swiping “Task 2”'")
        assert cell(ann, "t2").locator(".presence-mark").count() == 0  # one's own is not marked

        ann.locator(".nav-title").click()  # a tap elsewhere closes the swipe: the mark goes
        mark.wait_for(state="detached")
        assert "other-activity" not in cell(bo, "t2").get_attribute("class")

        ann.close_context()  # Ann leaves: her initials go
        ann = None
        bo.locator(".nav-presence").wait_for(state="hidden")
        assert dots(bo).count() == 0
        assert bo.errors == []
    finally:
        if ann:
            ann.close_context()
        bo.close_context()
