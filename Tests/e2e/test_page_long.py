"""A list of 1,000,000 rows, taller than a browser lays out (Chromium and WebKit both stop
at 33,554,428 px, their layout's fixed-point limit; Firefox at 17,895,696): every row is
reached, by the scrubber, by keyboard and by scrolling, and drawn 44 px apart, in each
engine."""
from page_helpers import app_page, browser, numbered_list, serving  # noqa: F401 (fixtures)

N = 1_000_000
CAP = 33_554_432

server = serving(lambda: numbered_list(N))  # one import for the module: it takes ~9 s


# The rows inside the scroller's box, top to bottom (the page keeps a few more drawn).
ON_SCREEN = """() => {
    const box = document.querySelector('.page:last-child .scroller').getBoundingClientRect();
    return [...document.querySelectorAll('.page:last-child .cell[data-id]')].map((n) => {
        const r = n.getBoundingClientRect();
        return {id: n.dataset.id, text: n.querySelector('.text').textContent, top: r.top, bottom: r.bottom};
    }).filter((r) => r.bottom > box.top && r.top < box.bottom).sort((a, b) => a.top - b.top);
}"""


def on_screen(page):
    return page.evaluate(ON_SCREEN)


def assert_consecutive(rows):
    assert rows, "no rows on screen"
    numbers = [int(r["id"][1:]) for r in rows]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert all(r["text"] == f"Row {int(r['id'][1:])}" for r in rows)
    assert all(abs(b["top"] - a["top"] - 44) < 0.01 for a, b in zip(rows, rows[1:]))


# The tallest element this engine lays out: the largest height a div takes as asked
# (Chromium and WebKit draw taller ones at their limit, Firefox not at all).
ENGINE_CAP = """() => { const d = document.body.appendChild(document.createElement('div'));
    let lo = 1e6, hi = 1e9;
    while (hi - lo > 1) { const h = Math.floor((lo + hi) / 2); d.style.height = h + 'px';
        if (d.offsetHeight >= h - 1) lo = h; else hi = h; }
    d.style.height = lo + 'px'; const got = d.offsetHeight; d.remove(); return got; }"""


def test_the_drawn_list_stays_under_the_cap(page):
    cap = page.evaluate(ENGINE_CAP)
    assert 16_000_000 < cap <= CAP, cap  # 33,554,428 in Chromium 156 and WebKitGTK 2.50, 17,895,696 in Firefox 153
    height = page.evaluate("() => document.querySelector('.page:last-child .scroller').scrollHeight")
    assert 1_000_000 < height < cap
    assert page.locator(".scrubber").is_visible()
    assert page.locator(".cell").count() < 100


def test_dragging_the_scrubber_to_the_end_reaches_the_last_row(page):
    bar = page.locator(".scrubber").bounding_box()
    thumb = page.locator(".scrubber .thumb").bounding_box()
    x = thumb["x"] + thumb["width"] / 2
    page.mouse.move(x, thumb["y"] + 5)
    page.mouse.down()
    page.mouse.move(x, bar["y"] + bar["height"] / 2, steps=4)
    page.wait_for_selector(".scrubber .bubble:visible")
    middle = page.locator(".scrubber .bubble").text_content()
    page.mouse.move(x, bar["y"] + bar["height"] + 50, steps=4)
    page.mouse.up()
    page.wait_for_function("() => document.querySelector(\".cell[data-id='r999999'] .text\")")
    rows = on_screen(page)
    assert_consecutive(rows)
    assert rows[-1]["id"] == "r999999"
    box = page.locator(".page:last-child .scroller").bounding_box()
    assert abs(rows[-1]["bottom"] - (box["y"] + box["height"] - 34)) < 1.5  # above the table's bottom padding
    assert middle.startswith("Row ") and middle.endswith(" of 1,000,000")
    assert 450_000 < int(middle.split()[1].replace(",", "")) < 560_000  # about halfway
    assert page.locator(".scrubber").get_attribute("aria-valuenow") == "100"


# Whether rows of the region around `fraction` of the list are on screen: the cells the
# page drew before a jump stay in the document until the new region's rows arrive.
REGION_ON_SCREEN = f"""([fraction, n]) => {{
    const numbers = ({ON_SCREEN})().map((r) => Number(r.id.slice(1)));
    return numbers.length > 0 && Math.abs(Math.min(...numbers) - fraction * n) < 0.001 * n;
}}"""


def test_every_region_is_reached_and_scrolls_one_to_one(page):
    for fraction in (0.25, 0.5, 0.999):
        page.evaluate("f => { const s = document.querySelector('.page:last-child .scroller');"
                      " s.scrollTop = f * (s.scrollHeight - s.clientHeight); }", fraction)
        page.wait_for_function(REGION_ON_SCREEN, arg=[fraction, N])
        page.wait_for_timeout(100)
        before = on_screen(page)
        assert_consecutive(before)
        assert abs(int(before[0]["id"][1:]) - fraction * N) < 0.001 * N
        page.mouse.move(200, 400)
        page.mouse.wheel(0, 88)
        page.wait_for_timeout(150)
        after = on_screen(page)
        assert_consecutive(after)
        moved = int(after[0]["id"][1:]) - int(before[0]["id"][1:])
        assert 1 <= moved <= 8  # a small scroll moves a few rows, not thousands


def test_end_and_home_keys_reach_both_ends(page):
    page.locator(".cell[data-id='r0']").click()
    page.keyboard.press("End")
    page.wait_for_function("() => document.activeElement?.dataset?.id === 'r999999'")
    assert page.evaluate("() => document.activeElement.getAttribute('aria-posinset')") == "1000000"
    page.keyboard.press("ArrowUp")
    page.wait_for_function("() => document.activeElement?.dataset?.id === 'r999998'")
    assert_consecutive(on_screen(page))
    page.keyboard.press("Home")
    page.wait_for_function("() => document.activeElement?.dataset?.id === 'r0'")
