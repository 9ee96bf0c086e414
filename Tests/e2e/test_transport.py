"""The transport seen from an independent WebSocket client (Python's `websockets`)."""
import asyncio
import json
import os
import socket
import threading
import urllib.error
import urllib.request

import pytest
import websockets
from websockets.asyncio.client import connect

TIMEOUT = 5


def run(coroutine):
    """Runs `coroutine` to the end, bounded, on its own thread: another test module's
    fixture (Playwright's sync API) may hold an event loop on this one."""
    outcome = {}

    def target():
        try:
            outcome["value"] = asyncio.run(asyncio.wait_for(coroutine, TIMEOUT * 2))
        except BaseException as error:  # handed to the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(TIMEOUT * 3)
    if "error" in outcome:
        raise outcome["error"]
    assert "value" in outcome, "timed out"
    return outcome["value"]


async def upgrade_status(url, **options):
    """The HTTP status the server answers a WebSocket upgrade with (101 when accepted)."""
    try:
        async with connect(url, open_timeout=TIMEOUT, **options):
            return 101
    except websockets.exceptions.InvalidStatus as refusal:
        return refusal.response.status_code


@pytest.mark.parametrize("options, status", [
    ({}, 403),
    ({"subprotocols": ["chat"]}, 403),
    ({"subprotocols": ["http", "tableweb.v1"]}, 403),
    ({"subprotocols": ["tableweb.v1"], "origin": "http://evil.example"}, 403),
    ({"subprotocols": ["tableweb.v1"], "origin": "null"}, 403),
    ({"subprotocols": ["tableweb.v1"]}, 101),
    ({"subprotocols": ["chat", "tableweb.v1"]}, 101),
], ids=["no subprotocol", "unknown subprotocol", "http first", "foreign origin", "null origin",
        "no origin", "among others"])
def test_upgrade(tableweb_server, options, status):
    assert run(upgrade_status(tableweb_server.ws_url, **options)) == status


def test_same_origin_is_accepted(tableweb_server):
    status = run(upgrade_status(tableweb_server.ws_url, subprotocols=["tableweb.v1"],
                                origin=tableweb_server.origin))
    assert status == 101


def test_allowed_origin(launch_server):
    server = launch_server("--allowed-origin", "http://localhost:3000",
                           "--allowed-origin", "https://example.test")
    ok = run(upgrade_status(server.ws_url, subprotocols=["tableweb.v1"], origin="https://example.test"))
    refused = run(upgrade_status(server.ws_url, subprotocols=["tableweb.v1"], origin="http://localhost:3001"))
    assert (ok, refused) == (101, 403)


def test_subprotocol_is_confirmed(tableweb_server):
    async def check():
        async with connect(tableweb_server.ws_url, subprotocols=["tableweb.v1"],
                           open_timeout=TIMEOUT) as ws:
            return ws.subprotocol
    assert run(check()) == "tableweb.v1"


def test_page_is_served_with_its_types(tmp_path, launch_server):
    public = tmp_path / "Public"
    public.mkdir()
    (public / "index.html").write_text("<!doctype html><title>t</title>")
    (public / "app.js").write_text("export {};")
    (public / "style.css").write_text("body{}")
    (tmp_path / "secret.txt").write_text("top secret")
    server = launch_server(public=str(public))

    def get(path):
        try:
            with urllib.request.urlopen(server.url.rstrip("/") + path, timeout=TIMEOUT) as response:
                return response.status, response.headers.get("Content-Type", ""), response.read()
        except urllib.error.HTTPError as error:
            return error.code, "", b""

    assert get("/")[0:2] == (200, "text/html; charset=utf-8")
    assert get("/app.js")[1] == "text/javascript"
    assert get("/style.css")[1] == "text/css"
    assert get("/missing.js")[0] == 404
    # urllib normalizes "..", so send the raw request line.
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as raw:
        raw.sendall(b"GET /../secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := raw.recv(4096):
            answer += chunk
    assert b"top secret" not in answer


def test_sigterm_sends_going_away(tableweb_server):
    async def check():
        async with connect(tableweb_server.ws_url, subprotocols=["tableweb.v1"],
                           open_timeout=TIMEOUT) as ws:
            await asyncio.get_running_loop().run_in_executor(None, tableweb_server.stop)
            try:
                await asyncio.wait_for(ws.recv(), TIMEOUT)
            except websockets.exceptions.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
    assert run(check()) == 1001
    assert tableweb_server.process.returncode == 0
    # The database was closed cleanly: SQLite folds its write-ahead log back in and removes it.
    assert not os.path.exists(tableweb_server.db + "-wal")


def test_too_large_message_leaves_the_connection_usable(launch_server):
    server = launch_server("--max-message-size", "1024")

    async def check():
        async with connect(server.ws_url, subprotocols=["tableweb.v1"], open_timeout=TIMEOUT,
                           max_size=None) as ws:
            await ws.send("x" * 5000)
            await ws.send(json.dumps({"type": "hello", "session": None}))
            pong = await ws.ping()
            await asyncio.wait_for(pong, TIMEOUT)
            return ws.state.name
    assert run(check()) == "OPEN"


def test_permessage_deflate_when_enabled(launch_server):
    server = launch_server("--permessage-deflate", "--max-frame", "65536")

    async def check():
        async with connect(server.ws_url, subprotocols=["tableweb.v1"], open_timeout=TIMEOUT) as ws:
            negotiated = ws.response.headers.get("Sec-WebSocket-Extensions", "")
            await ws.send("0" * (1 << 20))  # tiny on the wire, over the limit once inflated
            pong = await ws.ping()
            await asyncio.wait_for(pong, TIMEOUT)
            return negotiated
    assert "permessage-deflate" in run(check())


def test_no_compression_by_default(tableweb_server):
    async def check():
        async with connect(tableweb_server.ws_url, subprotocols=["tableweb.v1"],
                           open_timeout=TIMEOUT) as ws:
            return ws.response.headers.get("Sec-WebSocket-Extensions")
    assert run(check()) is None


def test_invalid_utf8_closes_with_1007(tableweb_server):
    """Text frames must be UTF-8 (RFC 6455): the WebSocket layer closes, not the protocol."""
    with socket.create_connection(("127.0.0.1", tableweb_server.port), timeout=TIMEOUT) as raw:
        raw.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: tableweb.v1\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += raw.recv(4096)
        assert answer.startswith(b"HTTP/1.1 101")
        payload, mask = b'{"type":"\xff"}', b"\x01\x02\x03\x04"
        raw.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                    + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        close = answer.split(b"\r\n\r\n", 1)[1]
        while len(close) < 4:
            close += raw.recv(4096)
    assert close[0] == 0x88 and int.from_bytes(close[2:4], "big") == 1007
