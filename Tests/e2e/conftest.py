"""Shared fixtures for the end-to-end tests: a real `tableweb serve` on a free loopback port.

`tableweb_server` starts the release binary (`.build/release/tableweb`, or $TABLEWEB) with a
temporary database and the package's Public folder, waits for it to print its URL, and
stops it with SIGTERM afterwards. `launch_server(*args)` starts one with extra flags.
"""
import os
import re
import signal
import subprocess
import tempfile
import threading

import pytest

# The page tests' fixtures (browser, engine, page, …) for every module.
pytest_plugins = ["page_helpers"]

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TABLEWEB = os.environ.get("TABLEWEB", os.path.join(ROOT, ".build", "release", "tableweb"))
START_TIMEOUT = 15
STOP_TIMEOUT = 10


class TablewebServer:
    """One running `tableweb serve`; `port`, `url` (the page) and `ws_url`."""

    def __init__(self, args, public, db):
        self.db = db
        # public=None serves the page built into the binary.
        command = [TABLEWEB, "serve", "--host", "127.0.0.1", "--port", "0", "--db", db,
                   "--demo", *(["--public", public] if public else []), *args]
        # stderr joins stdout, which a thread drains: a server that logs a lot never blocks.
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.output = []
        self.port = self._wait_for_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.origin = f"http://127.0.0.1:{self.port}"

    def _wait_for_port(self):
        found = {}

        def read():
            for line in self.process.stdout:
                self.output.append(line)
                match = re.search(r"http://[^ ]*:(\d+)/", line)
                if match and "port" not in found:
                    found["port"] = int(match.group(1))
                    ready.set()
            ready.set()

        ready = threading.Event()
        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(START_TIMEOUT) or "port" not in found:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"tableweb serve did not start: {''.join(self.output)}")
        return found["port"]

    def stop(self):
        """SIGTERM, as a service manager would; returns the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise
        return self.process.returncode


@pytest.fixture
def launch_server(tmp_path):
    """A factory: launch_server("--read-only", public=...) starts a server for this test."""
    if not os.path.exists(TABLEWEB):
        pytest.skip(f"{TABLEWEB} is not built (make release)")
    servers = []

    def launch(*args, public=os.path.join(ROOT, "Public"), db=None):
        server = TablewebServer(list(args), public, db or str(tmp_path / f"tableweb{len(servers)}.sqlite"))
        servers.append(server)
        return server

    yield launch
    for server in servers:
        server.stop()


@pytest.fixture
def tableweb_server(launch_server):
    """A server with the default flags."""
    return launch_server()
