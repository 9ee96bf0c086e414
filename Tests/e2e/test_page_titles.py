"""Large titles in each engine: a root screen shows its title large above the list, with the
bar's small title hidden; scrolling collapses it into the bar; pushed screens have none."""
from page_helpers import app_page, browser, drill, go_back, serving  # noqa: F401 (fixtures)

APP = {"title": "Mailboxes", "style": "insetGrouped", "sections": [{"id": "s", "rows": [
    {"id": "inbox", "text": "Inbox", "children": {"title": "Inbox", "sections": [{"id": "i", "rows": [
        {"id": "m1", "text": "Hello"}]}]}},
    *({"id": f"r{i}", "text": f"Folder {i}"} for i in range(40))]}]}


server = serving(APP)


def small_title_opacity(page):
    page.wait_for_timeout(250)  # the fade
    return page.locator(".nav-title").evaluate("n => getComputedStyle(n).opacity")


def test_the_root_title_is_large_and_collapses_into_the_bar_on_scroll(page):
    large = page.locator(".page:last-child .large-title")
    assert large.is_visible() and large.text_content() == "Mailboxes"
    assert large.evaluate("n => parseFloat(getComputedStyle(n).fontSize)") == 34
    assert small_title_opacity(page) == "0"
    page.locator(".page:last-child .scroller").evaluate("s => s.scrollTop = 100")
    page.wait_for_selector(".navbar:not(.expanded)")
    assert small_title_opacity(page) == "1"
    assert large.bounding_box()["y"] + large.bounding_box()["height"] <= page.locator(".navbar").bounding_box()["height"]
    page.locator(".page:last-child .scroller").evaluate("s => s.scrollTop = 0")
    page.wait_for_selector(".navbar.expanded")
    assert small_title_opacity(page) == "0"


def test_pushed_screens_have_a_small_title_and_coming_back_shows_the_large_one(page):
    drill(page, "inbox", "Inbox")
    assert page.locator(".page:last-child .large-title").is_hidden()
    assert page.locator(".navbar.expanded").count() == 0
    assert small_title_opacity(page) == "1"
    go_back(page, "Mailboxes")
    page.wait_for_selector(".navbar.expanded")
    assert page.locator(".page:last-child .large-title").is_visible()
