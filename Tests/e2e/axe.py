"""axe-core (Deque's accessibility engine, as shipped in the PyPI package
axe-playwright-python) run on the page: every rule it has (WCAG 2.0–2.2 A and AA and its
best practices), violations only."""
import os

import axe_playwright_python

SOURCE = open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"),
              encoding="utf-8").read()
RUN = """async () => {
    const r = await axe.run(document, {resultTypes: ["violations"]});
    return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary.replace(/\\s+/g, " ")).slice(0, 5)}));
}"""


def violations(page):
    """What axe-core finds wrong with the page as it is now: [{id, impact, help, nodes}]."""
    if not page.evaluate("() => typeof axe === 'object'"):
        page.evaluate("() => {\n" + SOURCE + "\n}")  # a function: Playwright's and webdriver_page's evaluate call it
    return page.evaluate(RUN)


def describe(found):
    return "\n".join(f"{where}: {v['id']} ({v['impact']}) {v['help']}\n    " + "\n    ".join(v["nodes"])
                     for where, vs in found for v in vs)
