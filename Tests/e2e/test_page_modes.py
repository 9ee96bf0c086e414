"""Dark mode and reduced motion in each engine: in dark, the page's background and text
colours differ from light and keep readable contrast (WCAG AA, 4.5:1); with reduced
motion, a push replaces the screen with no transition."""
import re

from page_helpers import cell, browser, open_app, serving  # noqa: F401 (fixtures)

APP = {"title": "Home", "style": "grouped", "sections": [{"id": "s", "rows": [
    {"id": "next", "text": "Next", "detail": "More", "style": "value1", "children": {
        "title": "Next", "sections": [{"id": "n", "rows": [{"id": "n1", "text": "Inside"}]}]}}]}]}

server = serving(APP)

COLOURS = """() => {
  const c = document.querySelector('.page:last-child .cell'), s = (n, p) => getComputedStyle(n)[p];
  return [s(document.body, 'backgroundColor'), s(c, 'backgroundColor'), s(c.querySelector('.text'), 'color'),
          s(c.querySelector('.detail'), 'color'), s(document.querySelector('.nav-title'), 'color')];
}"""


def luminance(css):
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])
    lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b):
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def colours(browser, server, scheme):
    page = open_app(browser, server, color_scheme=scheme)
    try:
        cell(page, "next").wait_for()
        return page.evaluate(COLOURS)
    finally:
        assert page.errors == []
        page.close_context()


def test_dark_colours_differ_from_light_and_keep_contrast(browser, server):
    light, dark = colours(browser, server, "light"), colours(browser, server, "dark")
    for name, a, b in zip(["body", "cell", "text", "detail", "title"], light, dark):
        assert a != b, f"{name} is {a} in both schemes"
    for scheme in (light, dark):
        body, cell_bg, text, detail, title = scheme
        assert contrast(text, cell_bg) >= 4.5, scheme
        assert contrast(title, body) >= 4.5, scheme
        assert contrast(detail, cell_bg) >= 3, scheme  # secondary text: large-text AA at least


def test_reduced_motion_pushes_without_a_transition(browser, server):
    page = open_app(browser, server, reduced_motion="reduce")
    try:
        page.evaluate("""() => {
          window.slid = [];
          new MutationObserver((ms) => ms.forEach((m) => m.target.classList?.contains('slide') && slid.push(1)))
            .observe(document.querySelector('.pages'), { subtree: true, attributes: true, childList: true });
        }""")
        cell(page, "next").click()
        cell(page, "n1").wait_for()
        assert page.evaluate("window.slid.length") == 0
        assert page.locator(".page").count() == 1  # replaced at once, no old page sliding away
        assert page.locator(".page").evaluate("p => getComputedStyle(p).transitionDuration") == "0s"
        assert page.evaluate("getComputedStyle(document.querySelector('.nav-title')).transitionDuration") == "0s"
    finally:
        assert page.errors == []
        page.close_context()
