"""Custom cells in each engine: a list's layout filled by each row's values, set as text and
checked URLs (markup shows as text, a `javascript:` URL is refused), and the data file's
path-naming errors."""
import json
import subprocess

from conftest import TABLEWEB
from page_helpers import app_page, cell, browser, serving  # noqa: F401 (fixtures)

MARKUP = "<img src=x onerror=window.pwned=1>"
SLOTS = [{"name": "avatar", "kind": "image"}, {"name": "sender", "kind": "title"},
         {"name": "time", "kind": "trailing"}, {"name": "subject", "kind": "subtitle"},
         {"name": "preview", "kind": "body", "lines": 2}, {"name": "unread", "kind": "badge"}]
LONG = "A preview long enough to wrap onto a third line and a fourth at this width, " * 4
APP = {"title": "Inbox", "cell": {"slots": SLOTS}, "sections": [{"id": "in", "rows": [
    {"id": "m1", "text": "Ada", "values": {"sender": "Ada", "time": "9:41", "subject": "Notes",
                                           "preview": LONG, "unread": "2", "avatar": "avatar.png"}},
    {"id": "m2", "text": "x", "values": {"sender": MARKUP, "time": "Mon", "subject": "<b>bold</b>"}},
    {"id": "plain", "text": "A standard row"},
]}]}

server = serving(APP)


def test_values_fill_the_layout_as_text(page):
    m1 = cell(page, "m1")
    assert m1.locator(".slot-title").text_content() == "Ada"
    assert m1.locator(".slot-badge").text_content() == "2"
    assert m1.locator("img").get_attribute("src") == "avatar.png"
    title, trailing = m1.locator(".slot-title").bounding_box(), m1.locator(".slot-trailing").bounding_box()
    assert abs(title["y"] - trailing["y"]) < 4 and trailing["x"] > title["x"]  # one line: sender, time
    body = m1.locator(".slot-body")
    line = float(body.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
    assert line * 1.5 < body.bounding_box()["height"] < line * 2.5  # clamped to two lines
    assert m1.bounding_box()["height"] > 80  # the row grew to its layout
    assert m1.get_attribute("aria-label") == ", ".join(["Ada", "9:41", "Notes", LONG, "2"])
    m2 = cell(page, "m2")
    assert m2.locator(".slot-title").text_content() == MARKUP  # shown as text
    assert m2.locator(".slot-subtitle").text_content() == "<b>bold</b>"
    assert m2.locator("img, b").count() == 0
    assert page.evaluate("window.pwned") is None
    assert cell(page, "plain").locator(".text").text_content() == "A standard row"


def test_the_page_refuses_a_javascript_url(page):
    got = page.evaluate("""async () => {
        const { fillCustom, allowedURL } = await import('./custom.js');
        const box = document.createElement('div');
        fillCustom(box, { values: { a: 'javascript:window.pwned=1', t: 'x' } },
                   { slots: [{ name: 'a', kind: 'image', lines: 1 }, { name: 't', kind: 'title', lines: 1 }] });
        return [box.querySelectorAll('img').length,
                ['https://a/b.png', 'http://a', '/x.png', 'x/y:z.png', 'JavaScript:1', 'data:image/png,1']
                  .map(allowedURL)];
    }""")
    assert got == [0, [True, True, True, True, False, False]]


def test_import_names_the_path_of_bad_values(tmp_path):
    cases = [
        ({"avatar": "javascript:alert(1)"}, "sections[0].rows[0].values.avatar: not an http, https or relative URL"),
        ({"sendr": "x"}, "sections[0].rows[0].values.sendr: unknown field"),
        ({"sender": 3}, "sections[0].rows[0].values.sender: expected a string or null, found a number"),
    ]
    for values, message in cases:
        app = {"title": "T", "cell": {"slots": SLOTS}, "sections": [{"rows": [{"text": "a", "values": values}]}]}
        path = tmp_path / "app.json"
        path.write_text(json.dumps(app))
        result = subprocess.run([TABLEWEB, "import", str(path), "--db", str(tmp_path / "t.sqlite")],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode != 0 and message in result.stderr, result.stderr
