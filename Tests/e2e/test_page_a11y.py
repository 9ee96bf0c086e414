"""axe-core finds nothing wrong with any kind of screen of the demo app or of Examples/Hello
(lists plain, grouped and inset, indexed and searched, selection lists, custom cells,
editing with its toolbar, swipe actions, the context menu, the text alert, split view),
in light, dark and `prefers-contrast: more`: WCAG 2.2 AA's contrast included (4.5:1 for
text, 3:1 for large text). In every engine; `prefers-contrast: more` in Chromium, whose
Playwright context sets it."""
import pytest

import axe
from page_helpers import answered, cell, drill, go_back, new_page, serving, swipe  # noqa: F401
from page_helpers import browser  # noqa: F401 (fixtures)
from test_examples import start_hello

server = serving(None)  # the demo app

SCHEMES = {"light": {"color_scheme": "light"}, "dark": {"color_scheme": "dark"},
           "more": {"color_scheme": "light", "contrast": "more"},
           "more-dark": {"color_scheme": "dark", "contrast": "more"}}
# The tint of Edit in each: iOS's accessible blue on light bars, and under Increase
# Contrast iOS's own high-contrast blues.
TINT = {"light": "rgb(0, 98, 204)", "dark": "rgb(10, 132, 255)", "more": "rgb(0, 64, 221)",
        "more-dark": "rgb(64, 156, 255)"}


@pytest.fixture(autouse=True)
def contrast_in_chromium(engine, request):
    scheme = request.node.callspec.params.get("scheme", "")
    if engine != "chromium" and scheme.startswith("more"):
        pytest.skip("prefers-contrast is a Playwright context option (the WebDriver engines have none)")


def settle(page):
    page.wait_for_selector(".page:only-child .cell")
    page.wait_for_timeout(450)  # slides, fades and highlights have finished


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_demo_screen_passes_axe(browser, server, scheme):
    found = []

    def check(where):
        page.wait_for_timeout(400)
        v = axe.violations(page)
        if v:
            found.append((where, v))

    with new_page(browser, server.url, **SCHEMES[scheme]) as page:
        page.set_default_timeout(10000)
        settle(page)
        check("root")
        drill(page, "root-settings", "Settings")
        settle(page)
        check("settings (inset grouped, switches, details)")
        drill(page, "settings-sounds-row", "Sounds")
        drill(page, "sounds-ringtone", "Ringtone")
        settle(page)
        check("ringtone (a selection list)")
        for title in ("Sounds", "Settings", "tableweb"):
            go_back(page, title)
        drill(page, "root-contacts", "Contacts")
        settle(page)
        check("contacts (indexed, searchable)")
        page.get_by_role("searchbox").fill("an")
        page.wait_for_function("() => document.querySelector('.search-status').textContent")
        check("contacts search results")
        page.get_by_role("searchbox").fill("zzzzqqq")
        page.wait_for_function("() => document.querySelector('.searchbar.empty')")
        check("no results")
        page.locator(".search-cancel").click()
        page.wait_for_function("() => !document.querySelector('.searchbar.empty')")
        section_a = page.locator(".section", has=page.locator(".sh:text-is('A')"))
        name = section_a.locator(".cell[aria-posinset='1'] .text").text_content()
        section_a.locator(".cell[aria-posinset='1']").click()
        page.wait_for_function("t => document.querySelector('.nav-title').textContent === t", arg=name)
        settle(page)
        check("a contact (value2 rows)")
        go_back(page, "Contacts")
        go_back(page, "tableweb")
        drill(page, "root-hebrew", "אנשי קשר")
        settle(page)
        check("a Hebrew list (right to left)")
        go_back(page, "tableweb")
        drill(page, "root-world", "World")
        settle(page)
        check("world")
        go_back(page, "tableweb")
        drill(page, "root-repeat", "Repeat")
        settle(page)
        check("repeat (multiple selection)")
        go_back(page, "tableweb")
        drill(page, "root-mail", "Inbox")
        settle(page)
        check("mail (custom cells)")
        swipe(page, "mail-1", 120)
        check("mail, a leading swipe")
        page.locator(".nav-title").click()
        go_back(page, "tableweb")
        drill(page, "root-tasks", "Tasks")
        settle(page)
        check("tasks")
        assert page.locator(".nav-edit").evaluate("b => getComputedStyle(b).color") == TINT[scheme]
        swipe(page, "task-today-1", -120)
        check("tasks, a trailing swipe")
        page.locator(".nav-title").click()
        cell(page, "task-today-3").click(button="right")
        page.wait_for_selector(".menu")
        check("tasks, the context menu")
        page.keyboard.press("Escape")
        answered(page, page.locator(".nav-edit").click)
        cell(page, "task-later-0").click()
        cell(page, "task-today-2").locator(".minus").click()
        page.wait_for_selector(".delete-confirm")
        check("tasks, editing (toolbar, delete confirmation)")
        page.locator(".tb-add").click()
        page.wait_for_selector(".alert input")
        check("the text alert")
        page.keyboard.press("Escape")
    with new_page(browser, server.url, viewport={"width": 1280, "height": 760}, **SCHEMES[scheme]) as page:
        page.set_default_timeout(10000)
        page.wait_for_selector(".pages .page .cell")
        page.locator(".pages .page:last-child .cell[data-id='root-settings']").click()
        page.wait_for_function("() => document.querySelector('.nav-title').textContent === 'Settings'")
        page.wait_for_selector(".sidebar .cell.current")
        check("split view")
    assert not found, axe.describe(found)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_hello_example_passes_axe(browser, scheme):
    with start_hello() as address:
        with new_page(browser, address.url, **SCHEMES[scheme]) as page:
            page.wait_for_selector(".cell[data-id='Cherries']")
            page.wait_for_timeout(450)
            found = axe.violations(page)
    assert not found, axe.describe([("hello", found)])
