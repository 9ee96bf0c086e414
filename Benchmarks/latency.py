"""What a person waits for on a real network, in headless Chromium: the page behind a proxy
that delays every chunk (Tests/e2e/delayproxy.py), at 0 and 150 ms round trip, the page
built into the binary (as `tableweb serve` serves it). Prints, as medians of RUNS:
- first screen cold (a new browser profile: nothing cached) and warm (the same profile
  again, its service worker installed and stopped, as after a while away), from the start
  of the navigation to the first row on screen, with the requests the page made and the
  bytes that crossed the network (what the worker answered crosses none);
- for each of a person's own edits, the time from the gesture (the event the page handles)
  to the first frame drawn after its change is in the DOM, and to the server's answer;
- at 150 ms with 2 % of chunks lost (each held back as a TCP retransmission would hold
  it), the same edits and the time a dropped connection takes to come back.
Run by `make bench` or by hand: .venv/bin/python Benchmarks/latency.py [runs]."""
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))

import engines  # noqa: E402
from delayproxy import DelayProxy  # noqa: E402
from page_helpers import PHONE, Server  # noqa: E402

APP = {"title": "Home", "sections": [{"id": "home", "rows": [
    {"id": "sw", "text": "Wi-Fi", "switch": False},
    {"id": "tone", "text": "Tone", "children": {
        "title": "Tone", "selection": "single", "sections": [{"id": "tones", "rows": [
            {"id": "marimba", "text": "Marimba", "checked": True}, {"id": "radar", "text": "Radar"}]}]}},
    {"id": "notes", "text": "Notes", "children": {
        "title": "Notes", "editable": True,
        "actions": [{"id": "flag", "title": "Flag", "edge": "leading", "color": "orange", "effect": "flag"}],
        "sections": [{"id": "notes-s", "rows": [{"id": f"n{i}", "text": f"Note {i}"} for i in range(1, 41)]}]}},
]}]}

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 10

# In the page from its first line: the time (ms since the navigation began) the first row
# was drawn (the frame after it entered the DOM).
FIRST_ROW = """
new MutationObserver((_, observer) => {
  if (!document.querySelector('.page .cell')) return;
  observer.disconnect();
  requestAnimationFrame(() => { window.firstRowAt = performance.now(); });
}).observe(document, { childList: true, subtree: true });
"""
NETWORK = """() => performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))
  .filter((e) => e.name.startsWith('http')).map((e) => e.transferSize)"""


# Once the cold visit's first row is up: the page's service worker installed (its cache
# filled), as it is when a person comes back later.
INSTALLED = """() => Promise.race([navigator.serviceWorker.ready.then(() => true),
  new Promise((resolve) => setTimeout(() => resolve(false), 20000))])"""


def first_screen(context, url, cold):
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.firstRowAt !== undefined", timeout=20_000)
    at = page.evaluate("window.firstRowAt")
    sizes = page.evaluate(NETWORK)
    if cold:
        assert page.evaluate(INSTALLED), "the service worker did not install"
        # Stopped, as the browser stops an idle worker: the warm visit starts it again.
        session = context.new_cdp_session(page)
        session.send("ServiceWorker.enable")
        session.send("ServiceWorker.stopAllWorkers")
        session.detach()
    page.close()
    return at, len(sizes), sum(sizes)


def first_screens(browser, url):
    cold, warm = [], []
    for _ in range(RUNS):
        context = browser.new_context(viewport=PHONE, bypass_csp=True)
        context.add_init_script(FIRST_ROW)
        cold.append(first_screen(context, url, cold=True))
        warm.append(first_screen(context, url, cold=False))
        context.close()
    return cold, warm


def line(name, runs):
    times = [t for t, _, _ in runs]
    _, requests, size = runs[-1]
    print(f"  {name:<22} median {statistics.median(times):6.0f} ms  (min {min(times):4.0f}, max {max(times):5.0f})"
          f"  {requests} requests, {size:,} bytes over the network")


# In the page: runs `act()` (dispatches the gesture's event), then waits for `shown()` and
# for the server's next answer; returns ms from the gesture to the change in the DOM, to
# the first frame drawn after it, and to the answer. The page's own socket is watched.
MEASURE = """async ([act, shown]) => {
  act = new Function('return ' + act)(); shown = new Function('return ' + shown)();
  const ws = window.__ws;
  let ref = null; // the command the gesture sent
  ws.send = (data) => { ref ??= JSON.parse(data).ref; delete ws.send; return ws.send(data); };
  const answered = new Promise((resolve) => {
    const seen = (e) => { const m = JSON.parse(e.data); if ((m.type === 'ack' || m.type === 'error') && m.ref === ref) { ws.removeEventListener('message', seen); resolve(performance.now()); } };
    ws.addEventListener('message', seen);
  });
  let changed = null;
  const observer = new MutationObserver(() => { if (changed == null && shown()) changed = performance.now(); });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  const t0 = performance.now();
  act();
  if (changed == null && shown()) changed = performance.now();
  const drawn = await new Promise((resolve) => {
    const frame = () => changed != null ? resolve(performance.now()) : requestAnimationFrame(frame);
    requestAnimationFrame(frame);
  });
  observer.disconnect();
  return [changed - t0, drawn - t0, (await answered) - t0];
}"""
# Keeps the page's WebSocket where MEASURE finds it.
KEEP_SOCKET = """
const Native = window.WebSocket;
window.WebSocket = function (...args) { const ws = new Native(...args); window.__ws = ws; return ws; };
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
"""
CELL = "document.querySelector('.page:last-child .cell[data-id=\"%s\"]')"
KEY = "(n, key, alt) => n.dispatchEvent(new KeyboardEvent('keydown', { key, altKey: !!alt, bubbles: true }))"


def edits(page, n):
    """(name, setup(), act, shown) for the n-th round: each edit undoes the one before."""
    on = "true" if n % 2 == 0 else "false"
    pick = "radar" if n % 2 == 0 else "marimba"
    return [
        ("switch", lambda: open_list(page, None), f"() => {CELL % 'sw'}.querySelector('.switch').click()",
         f"() => {CELL % 'sw'}.querySelector('.switch').ariaChecked === '{on}'"),
        ("push (titled page slides in)", lambda: open_list(page, None), f"() => {CELL % 'tone'}.click()",
         "() => document.querySelector('.nav-title').textContent === 'Tone'"),
        ("checkmark (selection pick)", lambda: open_list(page, "tone"), f"() => {CELL % pick}.click()",
         f"() => !!{CELL % pick}?.querySelector('.checkmark')"),
        ("editing mode", lambda: open_list(page, "notes"), "() => document.querySelector('.nav-edit').click()",
         "() => document.querySelector('.page:last-child').classList.contains('editing')"),
        ("delete", None, f"() => {{ const c = {CELL % f'n{n + 1}'}; c.querySelector('.minus').click(); c.querySelector('.delete-confirm').click(); }}",
         f"() => !{CELL % f'n{n + 1}'} || {CELL % f'n{n + 1}'}.classList.contains('removing')"),
        ("insert", lambda: (to_bottom(page), ask(page, ".tb-add", f"Added {n}")), ENTER,
         f"() => [...document.querySelectorAll('.page:last-child .cell .text')].some((t) => t.textContent === 'Added {n}')"),
        ("text update (rename)", lambda: (to_bottom(page, 0), rename(page, f"n{n + 11}", f"Renamed {n}")), ENTER,
         f"() => {CELL % f'n{n + 11}'}.querySelector('.text').textContent === 'Renamed {n}'"),
        ("move", lambda: (to_bottom(page), hold_position(page, f"n{n + 30}")),
         f"() => ({KEY})({CELL % f'n{n + 30}'}, 'ArrowDown', true)",
         f"() => {CELL % f'n{n + 30}'}.getAttribute('aria-posinset') !== window.__before"),
        ("row action (flag)", lambda: (leave_editing(page), to_bottom(page, 0)),
         f"() => {{ const c = {CELL % f'n{n + 12}'}; c.dispatchEvent(new MouseEvent('contextmenu', {{ bubbles: true, button: 2, clientX: 50, clientY: c.getBoundingClientRect().top + 5 }})); document.querySelector('.menu button').click(); }}",
         f"() => {CELL % f'n{n + 12}'}.classList.contains('flagged')"),
    ]


ENTER = f"() => ({KEY})(document.querySelector('.alert input'), 'Enter')"


TITLES = {"tone": "Tone", "notes": "Notes"}


def open_list(page, row):
    """Goes to the root, then into `row`'s list (None: stays at the root)."""
    while page.locator(".nav-back").is_visible():
        page.wait_for_selector(".page:only-child")
        title = page.text_content(".nav-title")
        page.locator(".nav-back").click()
        page.wait_for_function("t => document.querySelector('.nav-title').textContent !== t", arg=title)
    page.wait_for_selector(".page:only-child .cell[data-id=sw]")
    if row:
        page.locator(f".cell[data-id={row}]").click()
        page.wait_for_function("t => document.querySelector('.nav-title').textContent === t", arg=TITLES[row])
        page.wait_for_selector(".page:only-child .cell")


def to_bottom(page, bottom=True):
    """Scrolls the list to its end (where Add puts the new row), or its top."""
    page.evaluate("b => { const s = document.querySelector('.page:last-child .scroller'); s.scrollTop = b ? s.scrollHeight : 0; }",
                  bottom)
    page.wait_for_timeout(100)


def ask(page, button, text):
    page.locator(button).click()
    page.locator(".alert input").fill(text)


def rename(page, row, text):
    page.locator(f".page:last-child .cell[data-id={row}]").click()  # picked: Rename applies to it
    ask(page, ".tb-rename", text)


def hold_position(page, row):
    page.focus(f".page:last-child .cell[data-id={row}]")
    page.evaluate(f"window.__before = {CELL % row}.getAttribute('aria-posinset')")


def leave_editing(page):
    if page.locator(".page:last-child.editing").count():
        page.locator(".nav-edit").click()
        page.wait_for_selector(".page:last-child:not(.editing)")


def own_edits(browser, url, runs):
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    context.add_init_script(KEEP_SOCKET)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(".page .cell")
    figures = {}
    for n in range(runs):
        for name, setup, act, shown in edits(page, n):
            if setup:
                setup()
            figures.setdefault(name, []).append(page.evaluate(MEASURE, [act, shown]))
            page.wait_for_function("() => !document.querySelector('.cell[data-id^=pending-]')")
        leave_editing(page)
    context.close()
    for name, runs_ in figures.items():
        changed, drawn, answered = ([r[k] for r in runs_] for k in range(3))
        print(f"  {name:<28} in the DOM {statistics.median(changed):5.1f} ms (max {max(changed):5.1f}), "
              f"drawn {statistics.median(drawn):5.1f} ms, answered {statistics.median(answered):6.1f} ms")


def resumes(browser, proxy, runs):
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(proxy.url)
    page.wait_for_selector(".page .cell")
    times = []
    for _ in range(runs):
        proxy.drop()
        page.wait_for_selector(".banner:not([hidden])")
        start = page.evaluate("performance.now()")
        page.wait_for_selector(".banner[hidden]", state="attached", timeout=20_000)
        times.append(page.evaluate("performance.now()") - start)
    context.close()
    print(f"  {'back after a dropped line':<28} median {statistics.median(times):6.0f} ms  (max {max(times):5.0f}; "
          "from the page seeing the drop to welcomed again)")


def main():
    browser = engines.launch("chromium")
    try:
        for one_way, loss in ((0, 0.0), (75, 0.0), (75, 0.02)):
            server = Server(APP, public=None)  # the edits start from the same rows each time
            proxy = DelayProxy(server.port, one_way_ms=one_way, loss=loss)
            print(f"round trip {2 * one_way} ms{f', {loss:.0%} of chunks lost' if loss else ''} ({RUNS} runs):")
            if not loss:
                cold, warm = first_screens(browser, proxy.url)
                line("first screen, cold", cold)
                line("first screen, warm", warm)
            own_edits(browser, proxy.url, RUNS)
            if loss:
                resumes(browser, proxy, RUNS)
            proxy.close()
            server.close()
    finally:
        browser.close()


if __name__ == "__main__":
    main()
