"""Regenerates docs/screenshots/*.png, the README's pictures of the page: the demo app
served by the real server (make release first), in an iPhone-sized Chromium (`NAME.png`)
and WebKit (`webkit-NAME.png`), light and dark. Run by `make screenshots`; arguments name
the engines (default: both)."""
import contextlib
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import engines  # noqa: E402
from page_helpers import ROOT, Server, answered, cell, drill, go_back, new_page, swipe  # noqa: E402

OUT = os.path.join(ROOT, "docs", "screenshots")
PHONE = {"viewport": {"width": 390, "height": 760}, "device_scale_factor": 2}


def settle(page):
    page.wait_for_selector(".page:only-child .cell")
    page.wait_for_timeout(450)  # transitions and highlights have finished


PREFIX = {"chromium": "", "webkit": "webkit-"}


def shoot(page, name):
    path = os.path.join(OUT, f"{PREFIX[page.engine]}{name}.png")
    page.screenshot(path=path)
    print("wrote", os.path.relpath(path, ROOT))


def main(names):
    os.makedirs(OUT, exist_ok=True)
    for name in names or ["chromium", "webkit"]:
        browser = engines.launch(name)
        try:
            shoot_all(browser)
        finally:
            browser.close()


def shoot_all(browser):
    server = Server()
    try:
        for scheme in ("light", "dark"):
            with new_page(browser, server.url, color_scheme=scheme, **PHONE) as page:
                page.set_default_timeout(10000)
                settle(page)
                shoot(page, f"root-{scheme}")
                drill(page, "root-settings", "Settings")
                settle(page)
                shoot(page, f"settings-{scheme}")
                drill(page, "settings-sounds-row", "Sounds")
                drill(page, "sounds-ringtone", "Ringtone")
                settle(page)
                shoot(page, f"ringtone-{scheme}")
                for title in ("Sounds", "Settings", "tableweb"):
                    go_back(page, title)
                drill(page, "root-contacts", "Contacts")
                settle(page)
                page.locator(".index-strip span", has_text="M").click()
                page.wait_for_timeout(200)
                shoot(page, f"contacts-{scheme}")
                section_m = page.locator(".section", has=page.locator(".sh:text-is('M')"))
                name = section_m.locator(".cell[aria-posinset='1'] .text").text_content()
                section_m.locator(".cell[aria-posinset='1']").click()
                page.wait_for_function("t => document.querySelector('.nav-title').textContent === t",
                                       arg=name)
                settle(page)
                shoot(page, f"contact-{scheme}")
                go_back(page, "Contacts")
                page.get_by_role("searchbox", name="Search").fill("an")
                page.wait_for_function("() => document.querySelector('.search-status').textContent")
                page.wait_for_timeout(450)
                shoot(page, f"contacts-search-{scheme}")
                page.get_by_role("button", name="Cancel").click()
                go_back(page, "tableweb")
                drill(page, "root-tasks", "Tasks")
                settle(page)
                swipe(page, "task-today-1", -120)
                page.wait_for_timeout(400)
                shoot(page, f"tasks-swipe-{scheme}")
                page.locator(".nav-title").click()
                swipe(page, "task-today-2", 120)  # the leading action
                page.wait_for_timeout(400)
                shoot(page, f"tasks-leading-{scheme}")
                page.locator(".nav-title").click()
                cell(page, "task-today-3").click(button="right")  # the context menu
                page.wait_for_timeout(400)
                shoot(page, f"tasks-menu-{scheme}")
                page.keyboard.press("Escape")
                go_back(page, "tableweb")
                drill(page, "root-mail", "Inbox")
                settle(page)
                swipe(page, "mail-1", 120)  # Flag, in a custom cell
                page.wait_for_timeout(400)
                shoot(page, f"mail-{scheme}")
                page.locator(".nav-title").click()
                go_back(page, "tableweb")
                drill(page, "root-tasks", "Tasks")
                settle(page)
                answered(page, page.locator(".nav-edit").click)
                cell(page, "task-later-0").click()
                cell(page, "task-later-1").click()
                cell(page, "task-today-2").locator(".minus").click()
                page.wait_for_timeout(400)
                shoot(page, f"tasks-editing-{scheme}")
                page.locator(".nav-edit").click()
        split_view(browser, server)
        right_to_left(browser, server)
        large_text(browser, server)
        long_list(browser)
    finally:
        server.close()


def split_view(browser, server):
    """The demo on a 1,280 px window: Settings beside General, as on an iPad."""
    for scheme in ("light", "dark"):
        with new_page(browser, server.url, color_scheme=scheme, viewport={"width": 1280, "height": 760}) as page:
            page.set_default_timeout(10000)
            page.wait_for_selector(".pages .page .cell")
            for row, title in (("root-settings", "Settings"), ("settings-general-row", "General")):
                page.locator(f".pages .page:last-child .cell[data-id='{row}']").click()
                page.wait_for_function("t => document.querySelector('.nav-title').textContent === t", arg=title)
                page.wait_for_selector(".pages .page:only-child .cell")
            page.wait_for_selector(".sidebar .cell.current")
            page.wait_for_timeout(450)
            shoot(page, f"split-{scheme}")


def right_to_left(browser, server):
    """The demo's Hebrew list ("language": "he"): mirrored, with a leading swipe open."""
    for scheme in ("light", "dark"):
        with new_page(browser, server.url, color_scheme=scheme, **PHONE) as page:
            page.set_default_timeout(10000)
            settle(page)
            drill(page, "root-hebrew", "אנשי קשר")
            settle(page)
            first = page.locator(".page:last-child .cell[data-id]").first.get_attribute("data-id")
            swipe(page, first, -120)  # leftwards: the leading action, on the right
            page.wait_for_timeout(400)
            shoot(page, f"rtl-{scheme}")


def large_text(browser, server):
    """The demo at 200 % text: the browser's default font size at 32 px (Chromium only: set
    through its DevTools protocol, as its Appearance › Font size setting sets it)."""
    if browser.name != "chromium":
        return
    for scheme in ("light", "dark"):
        with new_page(browser, color_scheme=scheme, **PHONE) as page:
            page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": 32}})
            page.goto(server.url)
            page.set_default_timeout(10000)
            settle(page)
            drill(page, "root-settings", "Settings")
            settle(page)
            shoot(page, f"text-200-{scheme}")


LONG = {"title": "Log", "style": "plain", "sections": [{"id": "log", "rows": [
    {"id": f"e{i}", "text": f"Entry {i + 1:,}", "detail": f"{i % 60:02d}:00", "style": "value1"}
    for i in range(50_000)]}]}


NOTE = ("Rows grow to their text when \"lines\" is 0, as a UITableViewCell with numberOfLines = 0 "
        "does; \"lines\": 2 stops at two lines and an ellipsis, however long the text.")
SIZES = {"title": "Notes", "style": "insetGrouped", "sections": [{"id": "n", "rows": [
    {"id": "a", "text": "One line"},
    {"id": "b", "text": NOTE, "lines": 0},
    {"id": "c", "text": "Subtitle", "detail": "56 px, as on iOS", "style": "subtitle"},
    {"id": "d", "text": NOTE, "lines": 2, "accessory": "disclosure"},
    {"id": "e", "text": "address", "detail": "1 Infinite Loop\nCupertino, CA 95014\nUnited States",
     "style": "value2", "lines": 0}]}]}


def long_list(browser):
    """A long list without an index, its scrubber held halfway down; self-sizing rows."""
    with contextlib.closing(Server(SIZES)) as server:
        for scheme in ("light", "dark"):
            with new_page(browser, server.url, color_scheme=scheme, **PHONE) as page:
                settle(page)
                shoot(page, f"sizing-{scheme}")
    server = Server(LONG)
    try:
        for scheme in ("light", "dark"):
            with new_page(browser, server.url, color_scheme=scheme, **PHONE) as page:
                settle(page)
                thumb = page.locator(".scrubber .thumb").bounding_box()
                x = thumb["x"] + thumb["width"] / 2
                page.mouse.move(x, thumb["y"] + 5)
                page.mouse.down()
                page.mouse.move(x, thumb["y"] + 300, steps=5)
                page.wait_for_timeout(300)
                shoot(page, f"long-scrubber-{scheme}")
                page.mouse.up()
    finally:
        server.close()


if __name__ == "__main__":
    main(sys.argv[1:])
