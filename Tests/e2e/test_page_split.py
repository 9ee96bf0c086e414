"""Split view in each engine (UISplitViewController): on a window 1,000 px or wider the
screen that pushed stays in a sidebar beside the top one, live, with the row that leads
to the top highlighted; a tap there replaces the top; narrowing the window collapses to
the phone layout with the stack kept, and widening brings the sidebar back."""
import subprocess

from conftest import TABLEWEB
from page_helpers import browser, open_app, serving  # noqa: F401 (fixtures)

WIDE = {"width": 1280, "height": 800}


def mailbox(name, n):
    return {"title": name, "sections": [{"id": f"{name}-s", "rows": [
        {"id": f"{name}-{i}", "text": f"{name} message {i}"} for i in range(n)]}]}


APP = {"title": "Mailboxes", "style": "insetGrouped", "editable": True, "sections": [{"id": "boxes", "rows": [
    {"id": "inbox", "text": "Inbox", "children": mailbox("Inbox", 5)},
    {"id": "archive", "text": "Archive", "children": mailbox("Archive", 3)},
    {"id": "sent", "text": "Sent", "children": mailbox("Sent", 2)}]}]}

server = serving(APP)

TOP = ".pages .page:last-child"
SIDE = ".sidebar .page"


def top_title(page, expected):
    page.wait_for_function("t => document.querySelector('.nav-title').textContent === t", arg=expected)
    page.wait_for_selector(".pages .page:only-child .cell")


def wide_on(browser, server, row, expected_title):
    """A new session on a wide window, drilled from the root into `row`."""
    page = open_app(browser, server, viewport=WIDE)
    assert page.locator(".sidebar").is_hidden()  # nothing beside the root
    page.locator(f"{TOP} .cell[data-id='{row}']").click()
    top_title(page, expected_title)
    page.wait_for_selector(f"{SIDE} .cell[data-id='{row}'].current")
    return page


def test_the_screen_that_pushed_stays_beside_with_its_row_selected(browser, server):
    page = wide_on(browser, server, "inbox", "Inbox")
    sidebar = page.locator(".sidebar")
    assert sidebar.get_attribute("aria-label") == "Mailboxes"
    assert page.locator(".sidebar h2").text_content() == "Mailboxes"
    assert sidebar.bounding_box()["width"] == 320
    assert page.locator("#app").bounding_box()["x"] == 320  # the detail fills the rest
    assert page.locator("#app").bounding_box()["width"] == 960
    current = page.locator(f"{SIDE} .cell[aria-current='true']")
    assert current.count() == 1 and current.get_attribute("data-id") == "inbox"
    assert page.locator(f"{TOP} .cell").count() == 5
    assert page.locator(".nav-back .label").text_content() == "Mailboxes"  # the stack is as before
    assert page.errors == []
    page.close_context()


def test_the_sidebar_is_live_and_a_tap_there_replaces_the_top(browser, server):
    page = wide_on(browser, server, "inbox", "Inbox")
    # Someone else renames a mailbox: the sidebar shows it, the top is untouched.
    subprocess.run([TABLEWEB, "client", server.server.ws_url, "--strict"],
                   input='update sent "Sent mail"\n', check=True, capture_output=True, text=True, timeout=20)
    page.wait_for_function(
        "() => document.querySelector(\".sidebar .cell[data-id='sent'] .text\")?.textContent === 'Sent mail'")
    assert page.locator(".nav-title").text_content() == "Inbox"
    # A tap beside replaces the detail: no slide, the stack does not grow.
    page.locator(f"{SIDE} .cell[data-id='archive']").click()
    top_title(page, "Archive")
    page.wait_for_selector(f"{SIDE} .cell[data-id='archive'].current")
    assert page.locator(f"{SIDE} .cell.current").count() == 1
    assert page.locator(f"{TOP} .cell").count() == 3
    page.locator(".nav-back").click()
    top_title(page, "Mailboxes")
    page.wait_for_selector(".sidebar", state="hidden")
    assert page.locator(".nav-back").is_hidden()
    subprocess.run([TABLEWEB, "client", server.server.ws_url], input="update sent Sent\n",
                   check=True, capture_output=True, text=True, timeout=20)
    assert page.errors == []
    page.close_context()


def test_narrowing_collapses_to_the_phone_layout_and_keeps_the_stack(browser, server):
    page = wide_on(browser, server, "archive", "Archive")
    page.set_viewport_size({"width": 700, "height": 800})
    page.wait_for_selector(".sidebar", state="hidden")
    assert page.locator("#app").bounding_box()["width"] == 700
    assert page.locator(".nav-title").text_content() == "Archive"
    assert page.locator(".nav-back .label").text_content() == "Mailboxes"
    page.set_viewport_size(WIDE)
    page.wait_for_selector(f"{SIDE} .cell[data-id='archive'].current")
    page.set_viewport_size({"width": 700, "height": 800})
    page.wait_for_selector(".sidebar", state="hidden")
    page.locator(".nav-back").click()  # back still works, in the phone layout
    top_title(page, "Mailboxes")
    assert page.errors == []
    page.close_context()


def test_the_sidebar_works_with_the_keyboard(browser, server):
    page = wide_on(browser, server, "inbox", "Inbox")
    assert page.evaluate("() => document.querySelector('.sidebar').tagName") == "ASIDE"  # a complementary landmark
    page.locator(f"{SIDE} .scroller").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("() => document.activeElement.closest('.cell')?.dataset.id")
    assert focused in ("archive", "inbox"), focused
    page.locator(f"{SIDE} .cell[data-id='sent']").focus()
    page.keyboard.press("Enter")
    top_title(page, "Sent")
    page.wait_for_selector(f"{SIDE} .cell[data-id='sent'].current")
    assert page.errors == []
    page.close_context()
