"""Undo in the page: the toast after a delete brings the row back, Ctrl+Z undoes a switch
(and Ctrl+Y redoes it) for every viewer, and an undo over someone else's change is shown
as an alert with the server's message."""
import pytest

from page_helpers import browser, cell, drill, open_app, serving, swipe, wait_for_sections  # noqa: F401 (fixtures)

APP = {"title": "Home", "sections": [{"id": "home-s", "rows": [
    {"id": "wifi", "text": "Wi-Fi", "switch": False},
    {"id": "list", "text": "Groceries", "children": {
        "title": "Groceries", "editable": True, "sections": [{"id": "g", "rows": [
            {"id": "milk", "text": "Milk"}, {"id": "eggs", "text": "Eggs"}, {"id": "bread", "text": "Bread"}]}]}},
]}]}

server = serving(APP)


@pytest.fixture
def two(browser, server):
    pages = [open_app(browser, server) for _ in range(2)]
    yield pages
    for p in pages:
        assert p.errors == []
        p.close_context()


def switch_on(page, row_id):
    return cell(page, row_id).locator(".switch").get_attribute("aria-checked") == "true"


def test_the_toast_after_a_delete_undoes_it(two, engine):
    if engine != "chromium":
        pytest.skip("Chromium only")
    a, b = two
    for p in two:
        drill(p, "list", "Groceries")
    swipe(a, "milk", -120)
    cell(a, "milk").locator(".swipe-actions button").click()
    wait_for_sections(b, [["eggs", "bread"]])
    toast = a.locator(".undo-toast")
    toast.wait_for()
    assert toast.get_attribute("aria-live") == "polite"
    assert toast.text_content() == 'Deleted "Milk"—Undo'
    toast.locator("button").click()
    wait_for_sections(b, [["milk", "eggs", "bread"]])  # back where it stood, for everyone
    wait_for_sections(a, [["milk", "eggs", "bread"]])
    assert toast.is_hidden()


def wait_switch(page, on):
    page.wait_for_function(
        "on => document.querySelector(\".page:last-child .cell[data-id='wifi'] .switch\").getAttribute('aria-checked') === String(on)",
        arg=on)


def test_ctrl_z_undoes_a_switch_and_ctrl_y_redoes_it(two, engine):
    if engine != "chromium":
        pytest.skip("Chromium only")
    a, b = two
    was = switch_on(a, "wifi")
    cell(a, "wifi").locator(".switch").click()
    wait_switch(b, not was)
    a.locator(".nav-title").click()  # focus out of any field
    a.keyboard.press("Control+z")
    wait_switch(b, was)
    wait_switch(a, was)
    a.keyboard.press("Control+y")
    wait_switch(b, not was)
    wait_switch(a, not was)


def test_a_conflict_shows_an_alert(two, engine):
    if engine != "chromium":
        pytest.skip("Chromium only")
    a, b = two
    was = switch_on(a, "wifi")
    cell(a, "wifi").locator(".switch").click()
    wait_switch(b, not was)
    cell(b, "wifi").locator(".switch").click()  # someone else changes it back
    wait_switch(a, was)
    a.locator(".nav-title").click()
    a.keyboard.press("Control+z")
    alert = a.locator(".alert[role=alertdialog]")
    alert.wait_for()
    assert alert.locator("h2").text_content() == "Cannot Undo"
    assert "Wi-Fi" in alert.locator("p").text_content()
    alert.locator("button").click()
    alert.wait_for(state="detached")
    assert switch_on(a, "wifi") == was and switch_on(b, "wifi") == was  # nothing applied
