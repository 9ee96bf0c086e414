"""Frame timing of the page scrolling through a 1,000,000-row list, in headless Chromium and
in WebKitGTK (MiniBrowser under Xvfb), one after the other in the same run: prints frames
drawn, frames dropped (a 60 Hz frame that came late counts each 16.7 ms it missed) and
frame-time median, 95th percentile and worst, for three scripted scrolls: a fling (40 px a
frame, 1:1 — wheel or touch speed), a drag of the scrubber from top to bottom in 10 s (every
frame a new stretch of rows, fetched from the server), and a jump back. Run by `make bench`
or by hand: .venv/bin/python Benchmarks/pageframes.py [rows] (TABLEWEB_ENGINES=chromium for
one engine)."""
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))

import engines  # noqa: E402
from conftest import TABLEWEB  # noqa: E402
from page_helpers import PHONE, Server, new_page, numbered_list  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000  # another size, to compare
FRAME = 1000 / 60

# Runs in the page: moves the scroller by `step(k)` each animation frame for `frames`
# frames and returns the intervals between frames (ms).
SCROLL = """async ([kind, frames]) => {
  const s = document.querySelector('.page:last-child .scroller');
  const max = () => s.scrollHeight - s.clientHeight;
  const times = [];
  await new Promise((done) => {
    let k = 0;
    const tick = (t) => {
      times.push(t);
      if (k++ === frames) return done();
      if (kind === 'fling') s.scrollTop += 40;
      else if (kind === 'scrub') s.scrollTop = (k / frames) * max();
      else s.scrollTop = k % 2 ? 0 : max();
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return times.slice(1).map((t, i) => t - times[i]);
}"""


def report(name, intervals):
    dropped = sum(max(0, round(dt / FRAME) - 1) for dt in intervals)
    q = sorted(intervals)
    p95 = q[int(len(q) * 0.95) - 1]
    print(f"{name:<28} {len(intervals):>6} frames  {dropped:>5} dropped ({100 * dropped / (len(intervals) + dropped):4.1f} %)"
          f"  median {statistics.median(q):5.1f} ms  p95 {p95:5.1f} ms  worst {q[-1]:6.1f} ms")


# The baseline, in the same engine and run: a page that is nothing but a scroller as tall
# as the list is drawn, painted by CSS alone. What the engine costs on this machine (Xvfb,
# no GPU) without any of our script.
BASELINE = ("data:text/html,<meta name=viewport content='width=device-width'><style>body{margin:0}"
            ".page{position:fixed;inset:0}.scroller{height:100%;overflow-y:auto}.rows{height:16000000px;"
            "background:repeating-linear-gradient(%23fff 0 43px,%23ccc 43px 44px)}</style>"
            "<div class=page><div class=scroller><div class=rows></div></div></div>")


def run(engine, server):
    browser = engines.launch(engine)
    try:
        with new_page(browser, BASELINE, viewport=PHONE) as page:
            print(f"Baseline in {engine}: a bare scroller as tall, CSS only")
            report("fling, 40 px/frame, 10 s", page.evaluate(SCROLL, ["fling", 600]))
            report("jump between ends, 2 s", page.evaluate(SCROLL, ["jump", 120]))
        with new_page(browser, server.url, viewport=PHONE) as page:
            page.wait_for_selector(".cell[data-id]", timeout=20_000)
            print(f"Scrolling {N:,} rows in {engine}, 390x844, 60 Hz frames")
            report("fling, 40 px/frame, 10 s", page.evaluate(SCROLL, ["fling", 600]))
            report("scrubber, top to end, 10 s", page.evaluate(SCROLL, ["scrub", 600]))
            report("jump between ends, 2 s", page.evaluate(SCROLL, ["jump", 120]))
            page.evaluate("() => { const s = document.querySelector('.page:last-child .scroller');"
                          " s.scrollTop = s.scrollHeight; }")
            page.wait_for_selector(f".cell[data-id='r{N - 1}'] .text")
            print(f"row {N - 1:,} drawn at the end of the list: yes")
    finally:
        browser.close()


def main():
    if not os.path.exists(TABLEWEB):
        sys.exit(f"{TABLEWEB} is not built (make release)")
    print(f"load average {os.getloadavg()[0]:.1f}")
    server = Server(numbered_list(N))
    try:
        for engine in engines.ENGINES:
            run(engine, server)
    finally:
        server.close()
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
