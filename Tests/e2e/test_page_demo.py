"""The page on the server's own demo app (conftest's `tableweb_server`): dragging tasks
between the "Today" and "Later" sections, as UITableView's moveRowAt:to: allows."""
from page_helpers import (  # noqa: F401 (fixtures)
    answered, cell, browser, drag_handle, drill, open_app, wait_for_sections)

HEADER = 28  # a plain section header's height


def test_dragging_a_task_into_the_other_section(browser, tableweb_server):
    today = [f"task-today-{i}" for i in range(5)]
    later = [f"task-later-{i}" for i in range(3)]
    page = open_app(browser, tableweb_server)
    other = open_app(browser, tableweb_server)
    try:
        for p in (page, other):
            drill(p, "root-tasks", "Tasks")
        wait_for_sections(page, [today, later])
        answered(page, page.locator(".nav-edit").click)
        # Up past the "Later" header (28 pt in plain style) and two rows: after Today's third.
        drag_handle(page, "task-later-0", -(HEADER + 2 * 44 + 4))
        today.insert(3, later.pop(0))
        wait_for_sections(page, [today, later])
        # And Today's last row down past the header: the top of Later.
        drag_handle(page, "task-today-4", HEADER + 4)
        later.insert(0, today.pop())
        wait_for_sections(page, [today, later])
        cell(page, "task-today-4").focus()  # the keyboard crosses sections too
        page.keyboard.press("Alt+ArrowUp")
        today.append(later.pop(0))
        wait_for_sections(page, [today, later])
        wait_for_sections(other, [today, later])  # the server has it: another session sees the same
        page.reload()
        page.wait_for_selector(".page .cell")
        wait_for_sections(page, [today, later])
        assert page.errors == [] and other.errors == []
    finally:
        other.close_context()
        page.close_context()
