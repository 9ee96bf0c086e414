"""cell.js inside each engine: the parts of a cell the demo data never shows (an insert row's
green plus, the delete confirmation), from rows as model.js makes them."""
import pytest

from page_helpers import browser, new_page, public_url  # noqa: F401 (fixtures)

# Fills a cell for `row` in `state` and says which controls it shows, in order.
FILL = """async ([row, state]) => {
  const { fillCell } = await import("./cell.js");
  const { rowFromWire } = await import("./model.js");
  const node = document.createElement("div");
  fillCell(node, rowFromWire(row), { posinset: 1, setsize: 1, ...state });
  return [...node.querySelectorAll(".content > *")].map((n) => n.className);
}"""


@pytest.fixture(scope="module")
def fill(browser, public_url):
    with new_page(browser, public_url + "wire.js") as page:
        yield lambda row, **state: page.evaluate(FILL, [row, state])


def row(**kw):
    return {"id": "R1", "text": "Phone", "style": "default", "accessory": "disclosure", **kw}


def test_an_insert_row_shows_a_green_plus_in_editing_mode(fill):
    assert fill(row(editing="insert"), editing=True) == ["edit-control plus", "labels"]
    assert fill(row(editing="insert"), editing=False) == ["labels", "accessory"]


def test_the_minus_turned_shows_delete_in_place_of_the_reorder_handle(fill):
    movable = row(editing="delete", movable=True)
    assert fill(movable, editing=True) == ["edit-control minus", "labels", "reorder"]
    assert fill(movable, editing=True, confirming=True) == ["edit-control minus", "labels", "delete-confirm"]


def test_a_switch_takes_the_accessorys_place_and_hides_in_editing_mode(fill):
    switch = row(control={"kind": "switch", "on": True})
    assert fill(switch) == ["labels", "switch"]
    assert fill(switch, editing=True) == ["labels"]
