"""Self-sizing rows (data format v1.1 `lines`) in each engine: a row of many lines shows its
whole text and pushes the next row down, subtitle rows are iOS's 56 px, `lines: n`
clamps, and scrolling up through rows measured only as they come into view never jumps."""
from page_helpers import app_page, cell, browser, serving  # noqa: F401 (fixtures)

LONG = ("A row whose text is far longer than one line: it wraps instead of ending in an "
        "ellipsis, as a UITableViewCell with numberOfLines = 0 does. ") * 4
APP = {"title": "Sizes", "style": "plain", "sections": [
    {"id": "one", "rows": [
        {"id": "before", "text": "Before"},
        {"id": "long", "text": LONG, "lines": 0},
        {"id": "after", "text": "After"},
        {"id": "sub", "text": "Subtitle", "detail": "Below", "style": "subtitle"},
        {"id": "v2", "text": "address", "detail": LONG, "style": "value2", "lines": 0},
        {"id": "two", "text": LONG, "lines": 2, "style": "value1", "detail": "x"}]},
    {"id": "many", "header": "Many", "rows": [
        {"id": f"m{i}", "text": f"{i}: " + "word " * (5 + (i * 37) % 60), "lines": 0} for i in range(300)]}]}


server = serving(APP)


def box(page, row_id):
    return cell(page, row_id).bounding_box()


def test_a_long_row_is_taller_than_three_rows_and_shows_its_whole_text(page):
    page.wait_for_function("""() => {  // once measured, the next row starts where it ends
        const [b, l, a] = ['before', 'long', 'after'].map((id) =>
            document.querySelector(`.cell[data-id=${id}]`).getBoundingClientRect());
        return Math.abs(l.top - b.bottom) < 0.5 && Math.abs(a.top - l.bottom) < 0.5; }""")
    assert box(page, "long")["height"] > 3 * 44
    text = cell(page, "long").locator(".text")
    assert text.text_content() == LONG
    assert text.evaluate("t => t.scrollHeight <= t.clientHeight && t.scrollWidth <= t.clientWidth")
    assert text.evaluate("t => t.getBoundingClientRect().bottom <= t.closest('.cell').getBoundingClientRect().bottom")


def test_styles_have_ios_heights_and_lines_clamps(page):
    assert abs(box(page, "sub")["height"] - 56) < 0.01
    v2 = cell(page, "v2").locator(".detail")
    assert box(page, "v2")["height"] > 3 * 44 and v2.evaluate("t => t.scrollHeight <= t.clientHeight")
    two = cell(page, "two").locator(".text")
    assert two.evaluate("t => t.scrollHeight > t.clientHeight")  # clamped: more text than shows
    assert 60 < box(page, "two")["height"] < 80  # two lines of text


def settled(page):
    """Waits until the scroller has stopped moving (a wheel scrolls smoothly)."""
    last = None
    while True:
        page.wait_for_timeout(50)
        now = page.evaluate("() => document.querySelector('.page:last-child .scroller').scrollTop")
        if now == last:
            return
        last = now


def test_scrolling_up_through_rows_not_measured_yet_never_jumps(page):
    scroller = ".page:last-child .scroller"
    page.evaluate(f"() => {{ const s = document.querySelector('{scroller}'); s.scrollTop = s.scrollHeight; }}")
    page.wait_for_function("() => document.querySelector(\".cell[data-id='m299']\")")
    tops = "() => Object.fromEntries([...document.querySelectorAll('.cell[data-id^=m]')].map((n) =>" \
        " [n.dataset.id, n.getBoundingClientRect().top]))"
    last = None  # rows measured as they came into view may still move the ones drawn (Firefox: 300 ms)
    while (now := page.evaluate(tops)) != last:
        last = now
        page.wait_for_timeout(50)
    for step in range(25):
        before = page.evaluate(tops)
        page.evaluate("() => document.querySelector('.page:last-child .scroller').scrollBy({top: -300, behavior: 'instant'})")
        settled(page)
        after = page.evaluate(tops)
        moved = [after[i] - before[i] for i in before if i in after]
        assert moved and all(abs(m - 300) < 1 for m in moved), (step, moved[:3])
    first = page.evaluate("() => document.querySelector('.page:last-child .scroller').scrollTop")
    assert first > 0  # still inside the list: the steps above were all real scrolls
