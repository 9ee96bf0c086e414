"""Frame timing of the page scrolling through a 1,000,000-row list in headless Chromium:
prints frames drawn, frames dropped (a 60 Hz frame that came late counts each 16.7 ms it
missed) and frame-time median, 95th percentile and worst, for three scripted scrolls:
a fling (40 px a frame, 1:1 — wheel or touch speed), a drag of the scrubber from top to
bottom in 10 s (every frame a new stretch of rows, fetched from the server), and a jump
back. Run by `make bench` or by hand: .venv/bin/python Benchmarks/pageframes.py [rows]"""
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))

from playwright.sync_api import sync_playwright  # noqa: E402

from conftest import TABLEWEB  # noqa: E402
from page_helpers import CHROMIUM, Server, numbered_list  # noqa: E402

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


def main():
    if not os.path.exists(TABLEWEB):
        sys.exit(f"{TABLEWEB} is not built (make release)")
    server = Server(numbered_list(N))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(server.url)
            page.wait_for_selector(".cell[data-id]")
            print(f"Scrolling {N:,} rows in headless Chromium, 390x844, 60 Hz frames")
            report("fling, 40 px/frame, 10 s", page.evaluate(SCROLL, ["fling", 600]))
            report("scrubber, top to end, 10 s", page.evaluate(SCROLL, ["scrub", 600]))
            report("jump between ends, 2 s", page.evaluate(SCROLL, ["jump", 120]))
            page.evaluate("() => { const s = document.querySelector('.page:last-child .scroller');"
                          " s.scrollTop = s.scrollHeight; }")
            page.wait_for_selector(f".cell[data-id='r{N - 1}'] .text")
            print(f"row {N - 1:,} drawn at the end of the list: yes")
            browser.close()
    finally:
        server.close()


if __name__ == "__main__":
    main()
