"""`tableweb client` from the outside: it never hangs and says why it cannot connect."""
import os
import subprocess

from conftest import TABLEWEB

TIMEOUT = 20


def client(*args, stdin=""):
    return subprocess.run([TABLEWEB, "client", *args], input=stdin, capture_output=True, text=True,
                          timeout=TIMEOUT)


def test_unreachable_server():
    result = client("ws://127.0.0.1:1/ws")
    assert result.returncode == 2
    assert "cannot connect to ws://127.0.0.1:1/ws" in result.stderr


def test_refused_upgrade(tableweb_server):
    result = client(f"ws://127.0.0.1:{tableweb_server.port}/not-ws")
    assert result.returncode == 2
    assert "refused the connection (HTTP 404)" in result.stderr


def test_bad_url():
    result = client("http://127.0.0.1:1/ws")
    assert result.returncode == 2
    assert "only ws://" in result.stderr
