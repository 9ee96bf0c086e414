"""The page at 200 % text: Chromium's default font size set to 32 px, the setting a person
changes (Settings › Appearance › Font size; `Page.setFontSizes` sets the same preference).
Rows grow with it, as with iOS's Dynamic Type, and nothing is clipped or overlaps: row
boxes, their labels and controls, the bar's buttons, swipe actions and the index strip are
measured, not only looked at. A list of a million rows still reaches its last row."""
import contextlib

import pytest

import engines
from page_helpers import (  # noqa: F401 (fixtures)
    Server, answered, browser, cell, drill, go_back, new_page, numbered_list, serving, swipe)

server = serving(None)  # the demo app
BIG = 32  # px: twice the browser's 16


@pytest.fixture(scope="module", params=[e for e in engines.ENGINES if e == "chromium"])
def engine(request):
    """Chromium alone: the default font size is set through Chromium's DevTools protocol."""
    return request.param


@contextlib.contextmanager
def big_text(browser, url, **options):
    with new_page(browser, **options) as page:
        page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": BIG}})
        page.goto(url)
        page.set_default_timeout(10000)
        page.wait_for_selector(".page .cell", timeout=20_000)
        yield page


# Everything wrong with the top screen's layout: rows overlapping, text or controls cut
# (scrollWidth/scrollHeight past the box; a label may end in an ellipsis, as UIKit's
# labels do at their number of lines, and says its whole text in the row's aria-label), anything sticking
# out of its row, bar buttons cut or overlapping, the index strip beyond the page.
PROBLEMS = """() => {
    const out = [];
    const box = (n) => n.getBoundingClientRect();
    const name = (n) => n.className + (n.closest('.cell') ? ' in ' + n.closest('.cell').dataset.id : '');
    const shown = (n) => n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden';
    const cut = (n) => {
        const s = getComputedStyle(n);
        const clamped = s.webkitLineClamp && s.webkitLineClamp !== 'none'; // `lines`: n, ending in an ellipsis
        if (n.scrollHeight > n.clientHeight + 1 && s.overflowY !== 'visible' && !clamped) out.push('cut vertically: ' + name(n));
        if (n.scrollWidth > n.clientWidth + 1 && s.overflowX !== 'visible' && s.textOverflow !== 'ellipsis')
            out.push('cut horizontally: ' + name(n));
    };
    const page = document.querySelector('.page:last-child');
    for (const sec of page.querySelectorAll('.section')) {
        const cells = [...sec.querySelectorAll('.cell[data-id]:not(.removing)')].map((n) => [n, box(n)])
            .sort((a, b) => a[1].top - b[1].top);
        cells.forEach(([n, r], k) => {
            if (k && r.top < cells[k - 1][1].bottom - 0.5) out.push('overlap: ' + cells[k - 1][0].dataset.id + ' / ' + n.dataset.id);
            cut(n);
            for (const c of n.querySelectorAll('.content > *, .labels > *, .slot-top > *, .accessory > *, .swipe-actions button')) {
                if (!shown(c)) continue;
                cut(c);
                const b = box(c);
                if (b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5) out.push('outside its row: ' + name(c));
            }
        });
    }
    const pr = box(page);
    const strip = page.querySelector('.index-strip');
    if (strip) {
        const s = box(strip);
        if (s.top < pr.top - 0.5 || s.bottom > pr.bottom + 0.5) out.push('index strip beyond the page');
        const spans = [...strip.children].map(box);
        spans.forEach((b, k) => k && b.top < spans[k - 1].bottom - 0.5 && out.push('index titles overlap'));
    }
    const bar = [...document.querySelectorAll('.nav-back, .nav-title, .nav-edit')].filter(shown);
    for (const n of bar) {
        if (!n.matches('.nav-title')) cut(n);
        const b = box(n);
        if (b.left < -0.5 || b.right > innerWidth + 0.5) out.push('off screen: ' + n.className);
    }
    bar.forEach((n, k) => bar.slice(k + 1).forEach((m) => {
        const a = box(n), b = box(m);
        if (a.right > b.left + 0.5 && b.right > a.left + 0.5) out.push('overlap: ' + n.className + ' / ' + m.className);
    }));
    for (const n of document.querySelectorAll('.toolbar button, .search-cancel, .nav-back .label')) if (shown(n)) cut(n);
    return out;
}"""


def assert_laid_out(page, where):
    page.wait_for_timeout(450)  # slides and glides have finished
    assert page.evaluate(PROBLEMS) == [], where


def row_height(page, row_id):
    return cell(page, row_id).bounding_box()["height"]


def test_rows_grow_with_the_text_size_and_nothing_is_cut_or_overlaps(browser, server):
    with big_text(browser, server.url) as page:
        assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == f"{BIG}px"
        assert row_height(page, "root-settings") == 88  # 44 pt at 200 %
        assert_laid_out(page, "root")
        drill(page, "root-settings", "Settings")
        assert_laid_out(page, "settings")
        drill(page, "settings-sounds-row", "Sounds")
        assert_laid_out(page, "sounds (the back button: its chevron alone if its words do not fit)")
        assert page.locator(".nav-back .chev").bounding_box()["width"] > 0
        go_back(page, "Settings")
        go_back(page, "tableweb")
        drill(page, "root-contacts", "Contacts")
        assert_laid_out(page, "contacts (the index strip)")
        strip = page.locator(".index-strip").bounding_box()
        assert strip["height"] <= page.locator(".page:last-child").bounding_box()["height"]
        go_back(page, "tableweb")
        drill(page, "root-mail", "Inbox")
        assert_laid_out(page, "mail (custom cells)")
        go_back(page, "tableweb")
        drill(page, "root-tasks", "Tasks")
        swipe(page, "task-today-1", -200)
        page.wait_for_selector(".swipe-actions.trailing button")
        assert_laid_out(page, "a trailing swipe")
        # The row opens as wide as its buttons are drawn: every one whole, beside the row.
        content = cell(page, "task-today-1").locator(".content").bounding_box()
        buttons = [b.bounding_box() for b in cell(page, "task-today-1").locator(".swipe-actions button").all()]
        assert min(b["x"] for b in buttons) >= content["x"] + content["width"] - 1
        assert max(b["x"] + b["width"] for b in buttons) <= content["x"] + content["width"] + sum(
            b["width"] for b in buttons) + 1
        page.locator(".nav-title").click()
        cell(page, "task-today-3").locator(".text").click(button="right")
        menu = page.locator(".menu").bounding_box()  # inside the window, its items whole
        assert menu["x"] >= 0 and menu["x"] + menu["width"] <= page.viewport_size["width"]
        assert menu["y"] >= 0 and menu["y"] + menu["height"] <= page.viewport_size["height"]
        assert page.evaluate("""() => [...document.querySelectorAll('.menu button')]
            .every((b) => b.scrollWidth <= b.clientWidth + 1 && b.scrollHeight <= b.clientHeight + 1)""")
        page.keyboard.press("Escape")
        answered(page, page.locator(".nav-edit").click)
        cell(page, "task-today-2").locator(".minus").click()
        page.wait_for_selector(".delete-confirm")
        assert_laid_out(page, "editing, a delete confirmation")


def test_a_million_rows_reach_their_last_row_at_200_percent(browser):
    with contextlib.closing(Server(numbered_list(1_000_000))) as s:
        with big_text(browser, s.url) as page:
            page.locator(".cell[data-id='r0']").click()
            page.keyboard.press("End")
            page.wait_for_function("() => document.activeElement?.dataset?.id === 'r999999'")
            page.wait_for_timeout(200)
            rows = page.evaluate("""() => [...document.querySelectorAll('.page:last-child .cell[data-id]')]
                .map((n) => ({id: n.dataset.id, top: n.getBoundingClientRect().top,
                              bottom: n.getBoundingClientRect().bottom}))
                .sort((a, b) => a.top - b.top)""")
            view = page.locator(".page:last-child .scroller").bounding_box()
            last = rows[-1]
            assert last["id"] == "r999999"
            assert last["bottom"] <= view["y"] + view["height"] + 0.5  # on screen, whole
            assert all(abs(b["top"] - a["top"] - 88) < 0.01 for a, b in zip(rows, rows[1:]))
            assert_laid_out(page, "the end of a million rows")
