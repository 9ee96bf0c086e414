"""Search in each engine: the field on a searchable screen filters the whole list on the
server (past the rows the page holds), folds case and accents, stays live while another
client edits, and Escape or Cancel ends it."""
import json
import urllib.request

from page_helpers import app_page, browser, serving, wait_for_sections  # noqa: F401 (fixtures)

N = 20_000


def app():
    rows = [{"id": f"r{i}", "text": f"Row {i}"} for i in range(N)]
    rows.insert(5, {"id": "dessert", "text": "Crème Brûlée", "detail": "Café de Flore"})
    return {"id": "Lnum", "title": "Numbers", "style": "plain", "searchable": True, "editable": True,
            "sections": [{"id": "all", "rows": rows}]}


server = serving(app)


def search(page, text):
    field = page.get_by_role("searchbox", name="Search")
    field.fill(text)
    return field


def post(server, command):
    request = urllib.request.Request(server.url + "api/commands", data=json.dumps(command).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert json.load(answer)["type"] == "ack"


def test_the_whole_list_is_searched_on_the_server_and_escape_ends_it(page):
    assert page.get_by_role("search").is_visible()
    field = search(page, "ROW 19999")  # far past the first rows the page was sent
    wait_for_sections(page, [["r19999"]])
    assert page.locator(".search-status").text_content() == "1 result"
    assert page.get_by_role("button", name="Cancel").is_visible()
    field.press("Escape")
    page.wait_for_function("() => document.querySelector('.page:last-child .cell[data-id=r0]')")
    assert field.input_value() == "" and page.get_by_role("button", name="Cancel").is_hidden()


def test_the_field_sits_under_the_large_title(page):
    nav, title, bar = (page.locator(s).bounding_box() for s in (".navbar", ".page:last-child .large-title", ".searchbar"))
    first = page.locator(".page:last-child .cell[data-id=r0]").bounding_box()
    assert nav["y"] + nav["height"] <= title["y"] + 1, (nav, title)
    assert title["y"] + title["height"] <= bar["y"] + 1 and bar["y"] + bar["height"] <= first["y"] + 1, (title, bar, first)
    assert bar["x"] < title["x"] + 1 and bar["height"] >= 36


def test_case_and_accents_are_folded_and_cancel_ends_it(page):
    page.keyboard.press("/")  # the keyboard reaches the field
    page.keyboard.type("creme brulee")
    wait_for_sections(page, [["dessert"]])
    search(page, "cafe")  # the detail matches too
    wait_for_sections(page, [["dessert"]])
    search(page, "no such thing")
    page.wait_for_selector(".searchbar.empty .search-status:text('No Results')")
    page.get_by_role("button", name="Cancel").click()
    page.wait_for_function("() => document.querySelector('.page:last-child .cell[data-id=r0]')")
    assert page.get_by_role("searchbox", name="Search").input_value() == ""


def test_results_stay_live_while_another_client_edits(page, server):
    search(page, "row 1234")
    wait_for_sections(page, [["r1234", "r11234", *(f"r1234{d}" for d in range(10))]])
    post(server, {"type": "update", "list": "Lnum", "row": "r12345", "text": "Renamed"})
    post(server, {"type": "insert", "list": "Lnum", "section": "all", "after": "r0",
                  "row": {"text": "Row 1234, again"}})
    new_row = page.locator(".page:last-child .cell", has_text="Row 1234, again").get_attribute("data-id")
    wait_for_sections(page, [[new_row, "r1234", "r11234", *(f"r1234{d}" for d in range(10) if d != 5)]])
    assert page.locator(".search-status").text_content() == "12 results"
