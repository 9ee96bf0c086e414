"""`make test`'s end-to-end run: every suite with the page in Chromium, and at the same
time, on the other core, the page suites again in WebKit and then in Firefox (the tests
whose id says [webkit] or [firefox]). Each is a pytest of its own with its own servers on
free ports; the second one's output is printed when both have finished. Exits non-zero
when either failed. TABLEWEB_OTHER_ENGINES (default "webkit,firefox") names the others.

Extra arguments go to both pytests (say `-x`, or `-k search`)."""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", HERE]


def main(args):
    started = time.monotonic()
    with tempfile.TemporaryFile("w+") as log:
        others = os.environ.get("TABLEWEB_OTHER_ENGINES", "webkit,firefox")
        others_run = subprocess.Popen([*PYTEST, "-k", " or ".join(others.split(",")), *args], stdout=log,
                                  stderr=subprocess.STDOUT, env=dict(os.environ, TABLEWEB_ENGINES=others))
        chromium_run = subprocess.run([*PYTEST, *args], env=dict(os.environ, TABLEWEB_ENGINES="chromium"))
        chromium_done = time.monotonic()
        others_run.wait()
        end = time.monotonic()
        print(f"\nend-to-end: Chromium and the rest {chromium_done - started:.0f} s; {others} beside them,"
              f" {end - started:.0f} s in all", flush=True)
        print(f"=== The page suites in {others} (run beside the above) ===", flush=True)
        log.seek(0)
        sys.stdout.write(log.read())  # last, so that its pytest's summary closes the output
        sys.stdout.flush()
    return 0 if chromium_run.returncode == others_run.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
