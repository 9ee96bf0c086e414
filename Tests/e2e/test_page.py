"""The page in each engine against the real server: navigation, cells, editing, gestures,
live updates between two browsers, text safety, resuming, and a 100,000-row list."""
import json
import urllib.request

from page_helpers import (  # noqa: F401 (fixtures)
    SECTION_IDS, answered, app_page, browser, cell, drag_handle, drill, go_back, open_app, reveal, serving,
    steady_box, swipe, title, visible_ids, wait_for_sections)

MARKUP = "<b>bold</b><img src=x onerror=window.pwned=1>"
IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='29' height='29'/%3E"


def notes(key, n=8):
    return {"id": key, "text": key.capitalize(), "children": {
        "title": key.capitalize(), "editable": True,
        "sections": [{"id": f"{key}-s", "rows": [{"id": f"{key}{i}", "text": f"Note {i}"} for i in range(1, n + 1)]}]}}


APP = {
    "title": "Settings", "style": "insetGrouped", "header": None, "footer": "Made for tests",
    "sections": [
        {"id": "main", "rows": [
            {"id": "airplane", "text": "Airplane Mode", "switch": False},
            {"id": "general", "text": "General", "children": {
                "title": "General", "style": "grouped", "sections": [{"id": "gen-s", "rows": [
                    {"id": "about", "text": "About", "children": {
                        "title": "About", "style": "insetGrouped", "sections": [{"id": "about-s", "rows": [
                            {"id": "model", "text": "Model Name", "style": "value1", "detail": "iPhone"},
                            {"id": "name", "text": "Name", "style": "value1", "detail": "Phone", "children": {
                                "title": "Name", "sections": [{"id": "name-s", "rows": [
                                    {"id": "name-field", "text": "Phone"}]}]}}]}]}},
                    {"id": "ringtone", "text": "Ringtone", "style": "value1", "children": {
                        "title": "Ringtone", "style": "insetGrouped", "selection": "single", "sections": [
                            {"id": "tones", "rows": [
                                {"id": "marimba", "text": "Marimba", "checked": True},
                                {"id": "radar", "text": "Radar"}]}]}}]}]}}]},
        {"id": "styles", "header": "Cell styles", "footer": "One of each", "rows": [
            {"id": "s-default", "text": "Default"},
            {"id": "s-subtitle", "text": "Subtitle", "detail": "Below the text", "style": "subtitle"},
            {"id": "s-value1", "text": "Value 1", "detail": "Right", "style": "value1"},
            {"id": "s-value2", "text": "Value 2", "detail": "Beside", "style": "value2"},
            {"id": "a-check", "text": "Checked", "accessory": "checkmark"},
            {"id": "a-detail", "text": "Detail button", "accessory": "detail"},
            {"id": "a-info", "text": "Detail disclosure", "accessory": "detailDisclosure", "children": {
                "title": "Info", "sections": [{"id": "info-s", "rows": [{"id": "info-row", "text": "Inside"}]}]}},
            {"id": "markup", "text": MARKUP, "detail": "<i>x</i>", "style": "value1"}]},
        {"id": "images", "header": "Images", "rows": [
            {"id": "i-default", "text": "Image", "image": IMAGE},
            {"id": "i-value2", "text": "No image", "detail": "value2", "style": "value2", "image": IMAGE}]},
        {"id": "reveal", "header": "Switches", "rows": [
            {"id": "more", "text": "Show more", "switch": False},
            {"id": "revealed", "text": "Revealed row", "showWhen": {"row": "more", "on": True}}]},
        {"id": "lists", "rows": [
            notes("swipe"), notes("drag"), notes("edit"), notes("shared"), notes("long", 60), notes("held", 4),
            {"id": "folders", "text": "Folders", "children": {
                "title": "Folders", "editable": True, "sections": [{"id": "folders-s", "rows": [
                    {"id": "inbox", "text": "Inbox", "children": {
                        "title": "Inbox", "sections": [{"id": "inbox-s", "rows": [
                            {"id": "mail", "text": "Hello"}]}]}}]}]}},
            {"id": "people", "text": "People", "children": {
                "title": "People", "index": True, "sections": [{"id": "people-s", "rows": [
                    {"id": f"p{i}", "text": name} for i, name in enumerate(
                        "Anna Bert Cleo Dora Emil Fay Gus Hana Ivo Jana Karl Lena Milo Nina Otto Pia "
                        "Quin Rosa Sven Tom Uma Vera Walt Xavi Yara Zeno Abe Bea Cid Dan".split())]}]}},
            {"id": "sparse", "text": "Sparse", "children": {
                "id": "Lsparse", "title": "Sparse", "index": True, "editable": True, "sections": [{"id": "sparse-s", "rows": [
                    {"id": f"sp{k}{i}", "text": f"{k}name {i}"} for k in "ABCGHMZ" for i in range(6)]}]}},
            {"id": "across", "text": "Across", "children": {
                "title": "Across", "style": "grouped", "editable": True, "sections": [
                    {"id": f"across-{k}", "header": k, "footer": f"{k} ends", "rows": [
                        {"id": f"{k}{i}", "text": f"{k} {i}"} for i in range(1, 4)]} for k in ("A", "B")]}},
            {"id": "big", "text": "Big", "children": {
                "title": "Big", "sections": [{"id": "big-s", "rows": [
                    {"id": f"b{i}", "text": f"Row {i}"} for i in range(100_000)]}]}}]},
    ],
}


server = serving(APP)


def ids_in(page):
    return [i for i in visible_ids(page)]


def test_drill_down_three_levels_and_back(page):
    assert title(page) == "Settings"
    assert page.locator(".nav-back").is_hidden()
    drill(page, "general", "General")
    drill(page, "about", "About")
    drill(page, "name", "Name")
    assert page.locator(".nav-back .label").text_content() == "About"
    go_back(page, "About")
    assert page.locator(".nav-back .label").text_content() == "General"
    go_back(page, "General")
    # The page forgot where it came from; the server's `selected` says it.
    assert page.evaluate("document.activeElement.dataset.id") == "about"
    go_back(page, "Settings")
    assert page.locator(".nav-back").is_hidden()
    assert page.evaluate("document.activeElement.dataset.id") == "general"  # where we came from


def test_escape_goes_back_and_arrows_and_enter_drill_down(page):
    page.locator(".scroller").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.id") == "general"
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('.nav-title').textContent === 'General'")
    page.wait_for_selector(".page:only-child")  # keys do nothing while the screen slides
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelector('.nav-title').textContent === 'Settings'")


def test_cell_styles_lay_out_like_uikit(page):
    def style(row_id, part, prop):
        return cell(page, row_id).locator(part).evaluate(f"n => getComputedStyle(n)['{prop}']")

    assert cell(page, "s-default").locator(".detail").count() == 0
    text, detail = (cell(page, "s-subtitle").locator(p).bounding_box() for p in (".text", ".detail"))
    assert detail["y"] >= text["y"] + text["height"] - 1  # subtitle: below
    text, detail = (cell(page, "s-value1").locator(p).bounding_box() for p in (".text", ".detail"))
    assert style("s-value1", ".detail", "textAlign") == "end" and detail["x"] > text["x"]
    assert style("s-value2", ".text", "textAlign") == "end"  # "right" in a left-to-right list
    assert style("s-value2", ".text", "color") == style("a-info", ".info", "color")  # the tint
    assert cell(page, "a-check").locator(".checkmark").count() == 1
    assert cell(page, "a-detail").locator(".info").count() == 1
    assert cell(page, "a-detail").locator(".chev").count() == 0
    assert cell(page, "a-info").locator(".info").count() == 1
    assert cell(page, "a-info").locator(".chev").count() == 1
    assert cell(page, "general").locator(".chev").count() == 1  # a row with children
    assert reveal(page, "i-default").locator("img.image").get_attribute("src") == IMAGE
    assert cell(page, "i-value2").locator("img").count() == 0  # value2 shows no image
    assert cell(page, "s-value1").get_attribute("aria-setsize") == "8"
    assert cell(page, "s-value1").get_attribute("aria-posinset") == "3"


def test_long_text_is_truncated_with_an_ellipsis(page):
    overflow = cell(page, "markup").locator(".text").evaluate(
        "n => [getComputedStyle(n).textOverflow, getComputedStyle(n).whiteSpace]")
    assert overflow == ["ellipsis", "nowrap"]


def test_detail_disclosure_button_and_row_both_push(page):
    cell(page, "a-info").locator(".info").click()
    page.wait_for_function("document.querySelector('.nav-title').textContent === 'Info'")
    go_back(page, "Settings")
    drill(page, "a-info", "Info")


def test_markup_in_row_text_is_shown_as_text(page):
    row = cell(page, "markup")
    assert row.locator(".text").text_content() == MARKUP
    assert row.locator(".detail").text_content() == "<i>x</i>"
    assert row.locator("b, img, i").count() == 0
    assert page.evaluate("window.pwned") is None


def test_a_switch_reveals_rows_and_is_shared(browser, server, page):
    assert cell(page, "revealed").count() == 0
    cell(page, "more").locator(".switch").click()
    cell(page, "revealed").wait_for()
    assert cell(page, "more").locator(".switch").get_attribute("aria-checked") == "true"
    other = open_app(browser, server)
    try:
        assert cell(other, "more").locator(".switch").get_attribute("aria-checked") == "true"
        cell(other, "more").locator(".switch").click()
        cell(page, "revealed").wait_for(state="detached")
        assert cell(page, "more").locator(".switch").get_attribute("aria-checked") == "false"
    finally:
        other.close_context()


def test_selection_list_moves_the_checkmark(page):
    drill(page, "general", "General")
    drill(page, "ringtone", "Ringtone")
    assert cell(page, "marimba").locator(".checkmark").count() == 1
    cell(page, "radar").click()
    cell(page, "radar").locator(".checkmark").wait_for()
    cell(page, "marimba").locator(".checkmark").wait_for(state="detached")
    go_back(page, "General")
    assert cell(page, "ringtone").locator(".detail").text_content() == "Radar"


def test_swipe_to_delete(page):
    drill(page, "swipe", "Swipe")
    swipe(page, "swipe1", -120)
    delete = cell(page, "swipe1").locator(".swipe-actions button")
    delete.wait_for()
    swipe(page, "swipe2", -120)  # only one row open at a time
    cell(page, "swipe1").locator(".swipe-actions").wait_for(state="detached")
    page.locator(".nav-title").click()  # a tap elsewhere closes it
    cell(page, "swipe2").locator(".swipe-actions").wait_for(state="detached")
    swipe(page, "swipe3", -120)
    cell(page, "swipe5").click()  # a tap on another row only closes it, too
    cell(page, "swipe3").locator(".swipe-actions").wait_for(state="detached")
    assert title(page) == "Swipe"
    swipe(page, "swipe1", -120)
    cell(page, "swipe1").locator(".swipe-actions button").click()
    cell(page, "swipe1").wait_for(state="detached")
    swipe(page, "swipe4", -340, steps=12)  # a long swipe deletes at once
    cell(page, "swipe4").wait_for(state="detached")
    page.wait_for_function("document.querySelectorAll('.cell.removing').length === 0")
    assert ids_in(page) == ["swipe2", "swipe3", "swipe5", "swipe6", "swipe7", "swipe8"]


def test_drag_to_reorder(page):
    drill(page, "drag", "Drag")
    answered(page, page.locator(".nav-edit").click)
    handle = steady_box(cell(page, "drag1").locator(".reorder"))
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + 44 * 2 + 10, steps=10)
    page.mouse.up()
    page.wait_for_function("""() => {
        const n = document.querySelector('.cell[data-id=drag1]');
        return n && n.getAttribute('aria-posinset') === '3' && !n.classList.contains('dragging'); }""")
    assert ids_in(page)[:4] == ["drag2", "drag3", "drag1", "drag4"]
    cell(page, "drag4").focus()  # and by keyboard
    page.keyboard.press("Alt+ArrowUp")
    page.wait_for_function("document.querySelector('.cell[data-id=drag4]').getAttribute('aria-posinset') === '3'")
    assert ids_in(page)[:4] == ["drag2", "drag3", "drag4", "drag1"]


def test_drag_to_another_section_in_grouped_style(page):
    drill(page, "across", "Across")
    answered(page, page.locator(".nav-edit").click)
    wait_for_sections(page, [["A1", "A2", "A3"], ["B1", "B2", "B3"]])
    # B1 up past B's header and A's footer, to where A3 is: between A2 and A3.
    drag_handle(page, "B1", cell(page, "A3").bounding_box()["y"] - cell(page, "B1").bounding_box()["y"])
    wait_for_sections(page, [["A1", "A2", "B1", "A3"], ["B2", "B3"]])
    # A1 down to where B3 is: A closes up behind it, so that place is now after B3.
    drag_handle(page, "A1", cell(page, "B3").bounding_box()["y"] - cell(page, "A1").bounding_box()["y"])
    wait_for_sections(page, [["A2", "B1", "A3"], ["B2", "B3", "A1"]])


def test_a_row_deleted_while_held_is_not_dropped(browser, server, page):
    other = open_app(browser, server)
    try:
        drill(page, "held", "Held")
        drill(other, "held", "Held")
        answered(page, page.locator(".nav-edit").click)
        answers = len(page.answers)
        handle = steady_box(cell(page, "held1").locator(".reorder"))
        page.mouse.move(handle["x"] + 5, handle["y"] + 5)
        page.mouse.down()
        page.mouse.move(handle["x"] + 5, handle["y"] + 5 + 44 * 2, steps=6)
        swipe(other, "held1", -340, steps=12)  # someone else deletes it meanwhile
        cell(page, "held1").wait_for(state="detached")
        page.mouse.move(handle["x"] + 5, handle["y"] + 5 + 44 * 3, steps=4)
        page.mouse.up()
        wait_for_sections(page, [["held2", "held3", "held4"]])
        page.wait_for_function("document.querySelector('.page:last-child .rows').style.height === '132px'")
        assert cell(page, "held4").evaluate("n => n.style.transform") == "translateY(88px)"  # no gap left
        page.wait_for_timeout(200)
        assert page.answers[answers:] == []  # no move was sent, to be refused
    finally:
        other.close_context()


def test_dragging_to_the_edge_scrolls(page):
    drill(page, "long", "Long")
    answered(page, page.locator(".nav-edit").click)
    handle = steady_box(cell(page, "long1").locator(".reorder"))
    bottom = page.locator(".scroller").bounding_box()
    x = handle["x"] + handle["width"] / 2
    page.mouse.move(x, handle["y"] + 5)
    page.mouse.down()
    page.mouse.move(x, bottom["y"] + bottom["height"] - 10, steps=10)
    page.wait_for_function("document.querySelector('.scroller').scrollTop > 300")
    page.mouse.up()
    page.wait_for_function("document.querySelector('.cell[data-id=long1]').getAttribute('aria-posinset') > 16")


def test_edit_mode_insert_rename_and_delete(page):
    drill(page, "edit", "Edit")
    answered(page, page.locator(".nav-edit").click)
    assert page.locator(".nav-edit").text_content() == "Done"
    cell(page, "edit1").locator(".minus").click()
    cell(page, "edit1").locator(".delete-confirm").click()
    cell(page, "edit1").wait_for(state="detached")
    cell(page, "edit2").click()
    cell(page, "edit3").click()
    assert page.locator(".tb-delete").text_content() == "Delete (2)"
    page.locator(".tb-delete").click()
    cell(page, "edit3").wait_for(state="detached")
    cell(page, "edit4").click()
    page.locator(".tb-rename").click()
    page.locator(".alert input").fill("Renamed <u>four</u>")
    page.keyboard.press("Enter")
    cell(page, "edit4").locator(".text", has_text="Renamed <u>four</u>").wait_for()
    page.locator(".tb-add").click()
    page.locator(".alert input").fill("Brand new")
    page.locator(".alert button", has_text="Add").click()
    page.locator(".cell .text", has_text="Brand new").wait_for()
    cell(page, "edit5").focus()
    page.keyboard.press("Delete")
    cell(page, "edit5").wait_for(state="detached")
    cell(page, "edit6").focus()
    page.keyboard.press("F2")
    page.locator(".alert input").fill("Six by keyboard")
    page.keyboard.press("Enter")
    cell(page, "edit6").locator(".text", has_text="Six by keyboard").wait_for()
    page.locator(".nav-edit").click()
    assert page.locator(".toolbar").is_hidden()
    texts = page.locator(".page .cell .text").all_text_contents()
    assert "Brand new" in texts and "Note 1" not in texts and "Note 5" not in texts


def test_two_browsers_editing_one_list_converge(browser, server, page):
    other = open_app(browser, server)
    try:
        drill(page, "shared", "Shared")
        drill(other, "shared", "Shared")
        answered(page, page.locator(".nav-edit").click)
        answered(other, other.locator(".nav-edit").click)
        cell(page, "shared1").locator(".minus").click()
        cell(other, "shared2").click()
        other.locator(".tb-rename").click()
        other.locator(".alert input").fill("Changed elsewhere")
        other.keyboard.press("Enter")
        page.locator(".cell.flash[data-id=shared2]").wait_for()  # someone else's change shows
        cell(other, "shared2").locator(".text", has_text="Changed elsewhere").wait_for()
        assert other.locator(".cell.flash[data-id=shared2]").count() == 0  # one's own does not
        cell(page, "shared1").locator(".delete-confirm").click()
        cell(other, "shared1").wait_for(state="detached")
        handle = steady_box(cell(other, "shared8").locator(".reorder"))
        other.mouse.move(handle["x"] + 5, handle["y"] + 5)
        other.mouse.down()
        other.mouse.move(handle["x"] + 5, handle["y"] - 44 * 5, steps=10)
        other.mouse.up()
        cell(page, "shared2").locator(".text", has_text="Changed elsewhere").wait_for()
        expected = ["shared2", "shared8", "shared3", "shared4", "shared5", "shared6", "shared7"]
        for p in (page, other):
            p.wait_for_function(f"ids => JSON.stringify(ids) === JSON.stringify(({SECTION_IDS})().flat())",
                                arg=expected)
        texts = [p.locator(".page .cell .text").all_text_contents() for p in (page, other)]
        assert sorted(texts[0]) == sorted(texts[1])
    finally:
        other.close_context()


def test_index_strip_jumps_to_a_section(page):
    drill(page, "people", "People")
    page.locator(".index-strip span", has_text="E").click()
    page.wait_for_function("document.querySelector('.scroller').scrollTop > 0")
    header = page.locator(".sh:text-is('E')").bounding_box()
    assert abs(header["y"] - page.locator(".scroller").bounding_box()["y"]) < 2
    a, k = (page.locator(".index-strip span", has_text=t).bounding_box() for t in ("A", "K"))
    page.mouse.move(a["x"] + 3, a["y"] + 3)
    page.mouse.down()  # dragging along the strip jumps as it goes
    page.mouse.move(k["x"] + 3, k["y"] + 3, steps=6)
    header = page.locator(".sh:text-is('K')").bounding_box()
    assert abs(header["y"] - page.locator(".scroller").bounding_box()["y"]) < 2
    page.mouse.up()


def test_an_indexed_list_shows_no_empty_sections_and_its_strip_jumps_to_the_next(page, server):
    drill(page, "sparse", "Sparse")
    headers = ".page:last-child .sh:visible"
    assert page.locator(headers).all_text_contents() == ["A", "B", "C", "G", "H", "M", "Z"]
    strip = page.locator(".index-strip span").all_text_contents()
    assert strip[:5] == ["A", "B", "C", "D", "E"] and len(strip) == 27  # every letter stays
    scroller = page.locator(".scroller").bounding_box()
    page.locator(".index-strip span", has_text="E").click()  # no E, no F: G
    page.wait_for_function("document.querySelector('.page:last-child .scroller').scrollTop > 0")
    assert abs(page.locator(".sh:text-is('G')").bounding_box()["y"] - scroller["y"]) < 2
    page.evaluate("document.querySelector('.page:last-child .scroller').scrollTop = 0")
    answer = post(server, {"type": "insert", "list": "Lsparse", "section": "Lsparse:E", "after": None,
                           "row": {"text": "Ename"}})
    assert answer["type"] == "ack", answer
    page.locator(".page:last-child .sh:text-is('E')").wait_for()  # a row came: its header shows
    page.locator(".index-strip span", has_text="E").click()  # now E itself
    page.wait_for_function("document.querySelector('.page:last-child .scroller').scrollTop > 0")
    assert abs(page.locator(".sh:text-is('E')").bounding_box()["y"] - scroller["y"]) < 2


def post(server, command):
    request = urllib.request.Request(server.url + "api/commands", data=json.dumps(command).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def test_reload_resumes_the_same_screen(page):
    drill(page, "general", "General")
    drill(page, "about", "About")
    page.reload()
    page.wait_for_selector(".page .cell")
    assert title(page) == "About"
    assert page.locator(".nav-back .label").text_content() == "General"
    go_back(page, "General")
    # The page forgot where it came from; the server's `selected` says it.
    assert page.evaluate("document.activeElement.dataset.id") == "about"


def test_server_restart_resumes_the_same_screen(page, server):
    drill(page, "general", "General")
    server.stop()
    page.locator(".banner").wait_for()
    assert page.locator(".banner").text_content() == "Reconnecting…"
    server.start()
    page.locator(".banner").wait_for(state="hidden", timeout=10000)
    assert title(page) == "General"
    drill(page, "about", "About")


def test_a_hundred_thousand_rows_keep_the_dom_small(page):
    drill(page, "big", "Big")
    scroller = page.locator(".scroller")
    for top in (44 * 500, 44 * 50_000, 44 * 99_990):
        scroller.evaluate(f"n => n.scrollTop = {top}")
        first = top // 44
        cell(page, f"b{first + 2}").wait_for()
        assert cell(page, f"b{first + 2}").locator(".text").text_content() == f"Row {first + 2}"
        assert page.locator(".cell").count() < 200
    assert cell(page, "b99999").get_attribute("aria-setsize") == "100000"
    assert cell(page, "b99999").get_attribute("aria-posinset") == "100000"
    for _ in range(40):
        page.mouse.wheel(0, -3000)
    page.wait_for_timeout(100)
    assert page.locator(".cell").count() < 200


# Scrolls the 100,000-row list a screenful at a time and times TableView.render, the work
# each frame does; the rest (paint) is the browser's.
SCROLL_TIMING = """async () => {
  const { TableView } = await import('./table.js');
  const render = TableView.prototype.render;
  const times = [];
  TableView.prototype.render = function () {
    const t = performance.now();
    render.call(this);
    times.push(performance.now() - t);
  };
  const scroller = document.querySelector('.page:last-child .scroller');
  let most = 0;
  for (let i = 0; i < 150; i++) {
    scroller.scrollTop += 700;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    most = Math.max(most, document.querySelectorAll('.cell').length);
  }
  TableView.prototype.render = render;
  times.sort((a, b) => a - b);
  return { p95: times[Math.floor(times.length * 0.95)], most };
}"""


def test_scrolling_a_hundred_thousand_rows_renders_well_within_a_frame(page):
    drill(page, "big", "Big")
    timing = page.evaluate(SCROLL_TIMING)
    assert timing["most"] < 200
    assert timing["p95"] < 16, timing


def test_loading_shows_until_the_first_screen(browser, server):
    from page_helpers import new_page
    from wsproxy import Proxy
    proxy = Proxy(server.port)
    proxy.hold = True  # the WebSocket is never answered
    try:
        with new_page(browser, proxy.url) as page:
            page.locator(".loading .spinner").wait_for()
            assert page.locator(".loading").text_content() == "Loading…"
            assert page.locator(".cell").count() == 0
    finally:
        proxy.close()


def test_reduced_motion_replaces_screens_without_sliding(browser, server):
    page = open_app(browser, server, reduced_motion="reduce")
    try:
        cell(page, "general").click()
        page.wait_for_function("document.querySelector('.nav-title').textContent === 'General'")
        assert page.locator(".page").count() == 1
        assert cell(page, "about").evaluate("n => getComputedStyle(n).transitionDuration") == "0s"
    finally:
        page.close_context()


def test_a_double_tap_pushes_one_level(page):
    cell(page, "general").dblclick()
    page.wait_for_function("document.querySelector('.nav-title').textContent === 'General'")
    page.wait_for_selector(".page:only-child .cell")
    page.wait_for_timeout(200)
    assert title(page) == "General"
    assert page.locator(".toast").is_hidden()  # the second tap was not sent to be refused
    go_back(page, "Settings")
    assert page.locator(".nav-back").is_hidden()


def test_dark_scheme(browser, server):
    page = open_app(browser, server, color_scheme="dark")
    try:
        colors = page.evaluate("""() => [document.body, document.querySelector('.cell'),
            document.querySelector('.cell .text')].map((n) => getComputedStyle(n)[n.tagName === 'SPAN'
            ? 'color' : 'backgroundColor'])""")
        assert colors == ["rgb(0, 0, 0)", "rgb(28, 28, 30)", "rgb(255, 255, 255)"]
    finally:
        page.close_context()


def test_a_screen_deleted_elsewhere_pops_with_a_notice(browser, server, page):
    other = open_app(browser, server)
    try:
        drill(page, "folders", "Folders")
        drill(page, "inbox", "Inbox")
        drill(other, "folders", "Folders")
        swipe(other, "inbox", -340, steps=12)
        page.wait_for_function("document.querySelector('.nav-title').textContent === 'Folders'")
        page.locator(".toast").wait_for()
        assert page.locator(".toast").text_content()
    finally:
        other.close_context()
