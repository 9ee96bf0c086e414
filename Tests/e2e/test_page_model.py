"""model.js, unit-tested inside each engine: the diff application algorithm of
protocol-core, the queue for early diffs, fetched rows, and the page's own commands shown
before the server answers them (rebased over every diff, gone with their answer)."""
import json

import pytest

from page_helpers import browser, new_page, public_url  # noqa: F401 (fixtures)


def row(id, text=None, **kw):
    return {"id": id, "style": "default", "text": text or id, **kw}


def section(id, ids, count=None, header=None):
    return {"id": id, "header": header, "footer": None, "count": len(ids) if count is None else count,
            "rows": [row(i) for i in ids]}


def screen(sections, list="L1", version=1):
    return {"type": "screen", "transition": "none", "depth": 0, "stack": ["T"],
            "screen": {"list": list, "version": version, "title": "T", "back": None, "style": "plain",
                       "editing": False, "editable": True, "selection": "none", "indexTitles": None,
                       "header": None, "footer": None, "sections": sections}}


def diff(ops, frm, list="L1"):
    return {"type": "diff", "list": list, "from": frm, "to": frm + 1, "ops": ops}


# Runs `steps` (messages fed to one Model) and returns, after each step, the version,
# the gap flag (or whether fetched rows were taken) and every section as "id:[row ids, null for unfetched]".
RUN = """async ([steps]) => {
  const { Model } = await import("./model.js");
  const m = new Model();
  const out = [];
  for (const msg of steps) {
    let gap = null, accepted = null, error = null, changes = null;
    try {
      if (msg.type === "screen") gap = m.setScreen(msg).gap;
      else if (msg.type === "diff") ({ gap, changes: [changes = null] = [] } = m.receiveDiff(msg));
      else if (msg.type === "rows") accepted = m.receiveRows(msg);
      else if (msg.type === "propose") changes = m.propose(msg.ref, msg.cmd);
      else if (msg.type === "settle") changes = m.settle(msg.ref);
    } catch (e) { error = e.name; }
    const sc = m.screen;
    const ids = (set) => set && [...set].sort();
    out.push({ version: sc?.version ?? null, gap, accepted, error,
      changes: changes && { removed: ids(changes.removed), inserted: ids(changes.inserted),
        updated: ids(changes.updated), renamed: changes.renamed },
      checked: sc ? sc.sections.flatMap((s) => s.rows.filter((r) => r?.accessory === "checkmark").map((r) => r.id)) : null,
      on: sc ? sc.sections.flatMap((s) => s.rows.filter((r) => r?.control?.on).map((r) => r.id)) : null,
      sections: sc ? sc.sections.map((s) => s.id + ":" + s.rows.map((r) => r ? r.id : "-").join(",")) : null,
      texts: sc ? sc.sections.flatMap((s) => s.rows.filter(Boolean).map((r) => r.text)) : null });
  }
  return out;
}"""


@pytest.fixture(scope="module")
def run(browser, public_url):
    with new_page(browser, public_url + "wire.js") as page:
        yield lambda *steps: page.evaluate(RUN, [list(steps)])


def test_screen_keeps_unfetched_rows_as_holes(run):
    [after] = run(screen([section("S1", ["A", "B"], count=5)]))
    assert after["sections"] == ["S1:A,B,-,-,-"]
    assert after["version"] == 1


def test_rows_are_removed_highest_first_then_placed_lowest_first_then_updated(run):
    ops = [{"op": "delete", "at": [0, 1]},
           {"op": "move", "from": [0, 3], "to": [0, 0]},
           {"op": "insert", "at": [0, 2], "row": row("X")},
           {"op": "update", "at": [0, 4], "row": row("E", "E2")}]
    _, after = run(screen([section("S1", ["A", "B", "C", "D", "E"])]), diff(ops, 1))
    assert after["sections"] == ["S1:D,A,X,C,E"]
    assert after["texts"][-1] == "E2"
    assert after["version"] == 2 and after["gap"] is False


def test_section_ops_use_old_paths_on_removal_and_new_paths_on_placement(run):
    ops = [{"op": "deleteSection", "at": 1},
           {"op": "delete", "at": [0, 0]},
           {"op": "insertSection", "at": 0, "section": section("N", ["Y"])},
           {"op": "move", "from": [2, 0], "to": [1, 0]},
           {"op": "updateSection", "at": 2, "header": "Empty", "footer": None}]
    start = screen([section("S0", ["A", "B"]), section("S1", ["C"]), section("S2", ["D"])])
    _, after = run(start, diff(ops, 1))
    assert after["sections"] == ["N:Y", "S0:D,B", "S2:"]


def test_moves_between_sections(run):
    ops = [{"op": "move", "from": [0, 0], "to": [1, 1]}, {"op": "move", "from": [1, 0], "to": [0, 1]}]
    _, after = run(screen([section("S0", ["A", "B"]), section("S1", ["C", "D"])]), diff(ops, 1))
    assert after["sections"] == ["S0:B,C", "S1:D,A"]


def test_an_early_diff_is_held_until_the_one_before_it_arrives(run):
    start = screen([section("S1", ["A"])])
    second = diff([{"op": "insert", "at": [0, 2], "row": row("C")}], 2)
    first = diff([{"op": "insert", "at": [0, 1], "row": row("B")}], 1)
    _, held, applied = run(start, second, first)
    assert held["sections"] == ["S1:A"] and held["gap"] is True and held["version"] == 1
    assert applied["sections"] == ["S1:A,B,C"] and applied["gap"] is False and applied["version"] == 3


def test_a_diff_the_screen_already_contains_is_ignored(run):
    start = screen([section("S1", ["A", "B"])], version=5)
    old = diff([{"op": "delete", "at": [0, 0]}], 4)
    _, after = run(start, old)
    assert after["sections"] == ["S1:A,B"] and after["gap"] is False


def test_diffs_for_a_list_arriving_before_its_screen_are_applied_after_it(run):
    early = diff([{"op": "delete", "at": [0, 0]}], 3, list="L2")
    too_old = diff([{"op": "delete", "at": [0, 0]}], 2, list="L2")
    first = screen([section("S1", ["A"])])
    second = screen([section("S9", ["P", "Q"])], list="L2", version=3)
    steps = run(first, early, too_old, second)
    assert steps[1]["gap"] is False  # held for L2, not a gap in L1
    assert steps[3]["sections"] == ["S9:Q"] and steps[3]["version"] == 4


def test_fetched_rows_fill_holes_and_follow_diffs(run):
    start = screen([section("S1", ["A"], count=4)])
    fetched = {"type": "rows", "list": "L1", "version": 1, "section": 0, "from": 1,
               "rows": [row("B"), row("C"), row("D")]}
    stale = {"type": "rows", "list": "L1", "version": 1, "section": 0, "from": 0, "rows": [row("Z")]}
    move_hole = diff([{"op": "move", "from": [0, 3], "to": [0, 0]}], 1)
    steps = run(start, move_hole, fetched, stale)
    assert steps[1]["sections"] == ["S1:-,A,-,-"]  # an unfetched row moves as a hole
    assert steps[2]["accepted"] is False  # rows of version 1 no longer fit version 2
    assert steps[3]["sections"] == ["S1:-,A,-,-"]
    [_, after] = run(start, fetched)
    assert after["sections"] == ["S1:A,B,C,D"] and after["accepted"] is True


def test_a_diff_that_does_not_fit_is_an_error_the_page_answers_with_reload(run):
    _, after = run(screen([section("S1", ["A"])]), diff([{"op": "delete", "at": [0, 7]}], 1))
    assert after["error"] == "RangeError"


# --- Own commands, shown before the server answers -------------------------------------

def propose(ref, cmd):
    return {"type": "propose", "ref": ref, "cmd": {"list": "L1", **cmd}}


def settle(ref):
    return {"type": "settle", "ref": ref}


def switch_row(id, on):
    return row(id, control={"kind": "switch", "on": on})


def test_an_own_toggle_shows_at_once_and_stays_over_someone_elses_diff(run):
    start = screen([{"id": "S1", "header": None, "footer": None, "count": 2,
                     "rows": [switch_row("A", False), switch_row("B", False)]}])
    other = diff([{"op": "insert", "at": [0, 0], "row": row("X")}], 1)
    mine = diff([{"op": "update", "at": [0, 1], "row": switch_row("A", True)}], 2)
    steps = run(start, propose(7, {"type": "toggle", "row": "A", "on": True}), other, mine, settle(7))
    assert steps[1]["on"] == ["A"] and steps[1]["changes"]["updated"] == ["A"]
    assert steps[2]["on"] == ["A"] and steps[2]["sections"] == ["S1:X,A,B"]  # rebased, not undone
    assert steps[3]["on"] == ["A"] and steps[4]["on"] == ["A"]
    assert steps[4]["changes"]["updated"] == []  # the server agreed: nothing moves on the answer


def test_a_refused_command_rolls_back_on_its_error(run):
    start = screen([section("S1", ["A", "B", "C"])])
    steps = run(start, propose(3, {"type": "delete", "rows": ["B"]}),
                diff([{"op": "delete", "at": [0, 0]}], 1), settle(3))
    assert steps[1]["sections"] == ["S1:A,C"] and steps[1]["changes"]["removed"] == ["B"]
    assert steps[2]["sections"] == ["S1:C"]  # someone else's delete, under one's own
    assert steps[3]["sections"] == ["S1:B,C"] and steps[3]["changes"]["inserted"] == ["B"]


def test_an_own_insert_shows_at_once_and_becomes_the_servers_row(run):
    start = screen([section("S1", ["A", "B"])])
    placed = diff([{"op": "insert", "at": [0, 1], "row": row("R9", "New")}], 1)
    steps = run(start, propose(4, {"type": "insert", "section": "S1", "after": "A", "row": {"text": "New"}}),
                placed, settle(4))
    assert steps[1]["sections"] == ["S1:A,pending-4,B"] and steps[1]["texts"] == ["A", "New", "B"]
    assert steps[2]["sections"] == ["S1:A,R9,B"]  # never two rows
    assert steps[2]["changes"]["renamed"] == [["pending-4", "R9"]]
    assert steps[2]["changes"]["inserted"] == [] and steps[2]["changes"]["removed"] == []
    assert steps[3]["sections"] == ["S1:A,R9,B"]


def test_an_own_move_is_rebased_over_another_insert(run):
    start = screen([section("S1", ["A", "B", "C"])])
    steps = run(start, propose(5, {"type": "move", "row": "A", "section": "S1", "after": "C"}),
                diff([{"op": "insert", "at": [0, 3], "row": row("D")}], 1))
    assert steps[1]["sections"] == ["S1:B,C,A"]
    assert steps[2]["sections"] == ["S1:B,C,A,D"]  # still after C, where it was put


def test_a_pick_in_a_single_selection_list_moves_the_checkmark_at_once(run):
    start = screen([{"id": "S1", "header": None, "footer": None, "count": 3,
                     "rows": [row("A", accessory="checkmark"), row("B"), row("C")]}])
    start["screen"]["selection"] = "single"
    steps = run(start, propose(2, {"type": "tap", "row": "C"}), settle(2))
    assert steps[1]["checked"] == ["C"]
    assert steps[2]["checked"] == ["A"]  # no diff came: the server's word stands


def test_a_tap_in_a_list_without_selection_is_not_shown_ahead(run):
    steps = run(screen([section("S1", ["A"])]), propose(2, {"type": "tap", "row": "A"}))
    assert steps[1]["changes"] is None


def test_a_row_action_whose_effect_the_screen_names_shows_at_once(run):
    start = screen([section("S1", ["A", "B"])])
    start["screen"]["actions"] = [{"id": "flag", "title": "Flag", "edge": "leading", "color": "orange", "effect": "flag"},
                                  {"id": "bin", "title": "Bin", "edge": "trailing", "color": "red", "effect": "delete"},
                                  {"id": "mine", "title": "Mine", "edge": "trailing", "color": "gray"}]
    steps = run(start, propose(1, {"type": "action", "row": "A", "action": "flag"}),
                propose(2, {"type": "action", "row": "B", "action": "bin"}),
                propose(3, {"type": "action", "row": "A", "action": "mine"}))
    assert steps[1]["changes"]["updated"] == ["A"]
    assert steps[2]["sections"] == ["S1:A"]
    assert steps[3]["changes"]["updated"] == []  # the app's own action: only the server knows
