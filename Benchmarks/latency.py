"""What a person waits for on a real network, in headless Chromium: the page behind a proxy
that delays every chunk (Tests/e2e/delayproxy.py), at 0 and 150 ms round trip, the page
built into the binary (as `tableweb serve` serves it). Prints, as medians of RUNS:
- first screen cold (a new browser profile: nothing cached) and warm (the same profile
  again), from the start of the navigation to the first row on screen, with the requests
  the page made and the bytes that crossed the network;
Run by `make bench` or by hand: .venv/bin/python Benchmarks/latency.py [runs]."""
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))

import engines  # noqa: E402
from delayproxy import DelayProxy  # noqa: E402
from page_helpers import PHONE, Server  # noqa: E402

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


def first_screen(context, url):
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.firstRowAt !== undefined", timeout=20_000)
    at = page.evaluate("window.firstRowAt")
    sizes = page.evaluate(NETWORK)
    page.close()
    return at, len(sizes), sum(sizes)


def first_screens(browser, url):
    cold, warm = [], []
    for _ in range(RUNS):
        context = browser.new_context(viewport=PHONE, bypass_csp=True)
        context.add_init_script(FIRST_ROW)
        cold.append(first_screen(context, url))
        warm.append(first_screen(context, url))
        context.close()
    return cold, warm


def line(name, runs):
    times = [t for t, _, _ in runs]
    _, requests, size = runs[-1]
    print(f"  {name:<22} median {statistics.median(times):6.0f} ms  (min {min(times):4.0f}, max {max(times):5.0f})"
          f"  {requests} requests, {size:,} bytes over the network")


def main():
    server = Server(public=None)
    browser = engines.launch("chromium")
    try:
        for one_way in (0, 75):
            proxy = DelayProxy(server.port, one_way_ms=one_way)
            print(f"round trip {2 * one_way} ms ({RUNS} runs):")
            cold, warm = first_screens(browser, proxy.url)
            line("first screen, cold", cold)
            line("first screen, warm", warm)
            proxy.close()
    finally:
        browser.close()
        server.close()


if __name__ == "__main__":
    main()
