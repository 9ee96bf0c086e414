"""Row actions in Chromium: swipe actions on both edges (a full swipe performs the first),
the context menu by right click and by keyboard, and the chosen action reaching the server
and another viewer; viewers are refused."""
import pytest

from page_helpers import cell, chromium, drill, open_app, serving, swipe  # noqa: F401 (fixtures)

ACTIONS = [
    {"id": "done", "title": "Done", "edge": "leading", "color": "green", "effect": "check"},
    {"id": "delete", "title": "Delete", "edge": "trailing", "color": "red", "effect": "delete"},
]
APP = {"title": "Home", "sections": [{"id": "home-s", "rows": [
    {"id": "tasks", "text": "Tasks", "children": {
        "title": "Tasks", "editable": True, "selection": "multiple", "actions": ACTIONS,
        "sections": [{"id": "tasks-s", "rows": [{"id": f"t{i}", "text": f"Task {i}"} for i in range(1, 9)]}]}},
]}]}

server = serving(APP)


@pytest.fixture
def two(chromium, server):
    pages = [open_app(chromium, server) for _ in range(2)]
    for p in pages:
        drill(p, "tasks", "Tasks")
    yield pages
    for p in pages:
        assert p.errors == []
        p.close_context()


def checked(page, row_id):
    return cell(page, row_id).locator(".checkmark")


def test_swipe_reveals_each_edge_and_a_full_swipe_performs_the_first(two):
    a, b = two
    swipe(a, "t1", 120)  # rightwards: the leading actions
    buttons = cell(a, "t1").locator(".swipe-actions.leading button")
    buttons.first.wait_for()
    assert buttons.all_text_contents() == ["Done"]
    buttons.first.click()
    checked(b, "t1").wait_for()  # the server checked it, and the other viewer sees it
    checked(a, "t1").wait_for()
    swipe(a, "t2", -120)  # leftwards: the trailing ones
    assert cell(a, "t2").locator(".swipe-actions.trailing button").all_text_contents() == ["Delete"]
    a.locator(".nav-title").click()  # a tap elsewhere closes it
    cell(a, "t2").locator(".swipe-actions").wait_for(state="detached")
    swipe(a, "t3", 340, steps=12)  # a full swipe right: Done, at once
    checked(b, "t3").wait_for()
    swipe(a, "t4", -340, steps=12)  # a full swipe left: Delete
    cell(b, "t4").wait_for(state="detached")
    cell(a, "t4").wait_for(state="detached")


def test_context_menu_by_right_click_and_by_keyboard(two):
    a, b = two
    cell(a, "t5").click(button="right")
    items = a.locator(".menu [role=menuitem]")
    items.first.wait_for()
    assert items.all_text_contents() == ["Done", "Delete"]
    assert a.locator(".menu").get_attribute("role") == "menu"
    assert a.locator(".menu").get_attribute("aria-label") == "Task 5"
    assert a.evaluate("document.activeElement.textContent") == "Done"
    a.keyboard.press("Escape")
    a.locator(".menu").wait_for(state="detached")
    assert a.evaluate("document.activeElement.dataset.id") == "t5"  # focus goes back to the row
    a.keyboard.press("Shift+F10")
    items.first.wait_for()
    a.keyboard.press("ArrowDown")
    assert a.evaluate("document.activeElement.textContent") == "Delete"
    a.keyboard.press("Enter")
    cell(b, "t5").wait_for(state="detached")
    cell(a, "t6").focus()
    a.keyboard.press("ContextMenu")
    items.first.wait_for()
    a.keyboard.press("Enter")  # Done
    checked(b, "t6").wait_for()
