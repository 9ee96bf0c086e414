"""Trust boundaries, tried from outside as an attacker would, against the real
`tableweb serve` on loopback: cross-site writes to `POST /api/commands`, a foreign `Host`
(DNS rebinding) on every path, and commands naming lists a session was never shown. Each
refusal is checked to have applied nothing: the data and another viewer's screen stay as
they were. Scripts and the page's own requests keep working."""
import asyncio
import json
import os
import re
import socket
import urllib.request

from test_protocol import Client, app_db, server  # noqa: F401 (fixtures)

DELETE_MILK = {"type": "delete", "list": "Ltasks", "rows": ["Rmilk"]}


def raw(port, method, path, headers=None, body=b""):
    """One request over a plain socket, exactly as given (Host included): (status, body)."""
    headers = {"Host": f"127.0.0.1:{port}", **(headers or {})}
    lines = [f"{method} {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in headers.items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    lines.append("Connection: close")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        received = b""
        while chunk := s.recv(65536):
            received += chunk
    head, _, rest = received.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), rest.decode(errors="replace")


def post(port, command, **headers):
    return raw(port, "POST", "/api/commands", headers, json.dumps(command).encode())


def metric(port, reason):
    _, text = raw(port, "GET", "/metrics")
    match = re.search(r'^tableweb_http_refused_total\{reason="%s"\} (\d+)' % reason, text, re.M)
    return int(match.group(1)) if match else 0


async def watch_tasks(server):
    """A viewer of Ltasks, to see that nothing refused reaches anyone."""
    viewer = await Client.open(server)
    await viewer.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
    return viewer


async def nothing_reached(viewer, screen):
    await viewer.settle(0.5)
    assert [m for m in viewer.inbox if m["type"] in ("diff", "screen")][1:] == []
    assert viewer.screen == screen


def test_cross_site_writes_are_refused_and_scripts_and_the_page_still_write(server):
    async def scenario():
        viewer = await watch_tasks(server)
        shown = json.loads(json.dumps(viewer.screen))
        port = server.port
        # A page elsewhere: a CORS "simple request" (no preflight), then one declaring JSON.
        status, text = await asyncio.to_thread(
            post, port, DELETE_MILK, **{"Content-Type": "text/plain", "Origin": "http://evil.example"})
        assert status == 403 and "origin" in text
        status, _ = await asyncio.to_thread(
            post, port, DELETE_MILK, **{"Content-Type": "application/json", "Origin": "null"})
        assert status == 403
        # A body not declared JSON, from anyone: 415 naming what to send.
        status, text = await asyncio.to_thread(post, port, DELETE_MILK, **{"Content-Type": "text/plain"})
        assert status == 415 and "application/json" in text
        status, _ = await asyncio.to_thread(post, port, DELETE_MILK)
        assert status == 415
        await nothing_reached(viewer, shown)
        assert (metric(port, "origin"), metric(port, "content_type")) == (2, 2)
        assert any("request refused" in line for line in server.output)

        # A script (no Origin) and the page itself (its own origin) still write.
        status, text = await asyncio.to_thread(
            post, port, {"type": "update", "list": "Ltasks", "row": "Reggs", "text": "Duck eggs"},
            **{"Content-Type": "application/json"})
        assert status == 200 and json.loads(text)["type"] == "ack"
        status, text = await asyncio.to_thread(
            post, port, {"type": "update", "list": "Ltasks", "row": "Rbread", "text": "Rye"},
            **{"Content-Type": "application/json; charset=utf-8", "Origin": server.origin})
        assert status == 200 and json.loads(text)["type"] == "ack"
        await viewer.settle(0.3)
        assert viewer.rows()[0] == ["Milk", "Duck eggs", "Rye"]
        await viewer.close()
    asyncio.run(scenario())


def test_a_foreign_host_is_refused_on_every_path_and_the_upgrade(server):
    async def scenario():
        viewer = await watch_tasks(server)
        shown = json.loads(json.dumps(viewer.screen))
        port = server.port
        evil = {"Host": f"evil.example:{port}"}
        for path in ["/", "/index.html", "/healthz", "/metrics", "/api/commands"]:
            status, text = await asyncio.to_thread(raw, port, "GET", path, evil)
            assert status == 403 and "--allowed-host" in text, path
        # What a rebound page sends: its own name as Host, and a matching Origin.
        status, _ = await asyncio.to_thread(
            post, port, DELETE_MILK,
            **evil, **{"Origin": f"http://evil.example:{port}", "Content-Type": "application/json"})
        assert status == 403
        status, _ = await asyncio.to_thread(raw, port, "GET", "/ws", {
            **evil, "Origin": f"http://evil.example:{port}", "Upgrade": "websocket",
            "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": "tableweb.v1"})
        assert status == 403
        await nothing_reached(viewer, shown)
        assert metric(port, "host") == 7
        # Loopback names and addresses, with any port, are answered.
        for host in ["localhost", f"localhost:{port}", f"127.0.0.1:{port}", "[::1]:1"]:
            status, _ = await asyncio.to_thread(raw, port, "GET", "/", {"Host": host})
            assert status == 200, host
        await viewer.close()
    asyncio.run(scenario())


def test_allowed_hosts_from_the_flag_and_the_environment(launch_server, monkeypatch):
    server = launch_server("--allowed-host", "tables.example")
    assert raw(server.port, "GET", "/", {"Host": "tables.example"})[0] == 200
    assert raw(server.port, "GET", "/", {"Host": "other.example"})[0] == 403
    monkeypatch.setenv("TABLEWEB_ALLOWED_HOST", "a.example, b.example")
    server = launch_server()
    for host, status in [("b.example:443", 200), ("a.example", 200), ("tables.example", 403)]:
        assert raw(server.port, "GET", "/", {"Host": host})[0] == status, host
        assert raw(server.port, "GET", "/healthz", {"Host": host})[0] == status, host


def test_a_session_reaches_only_the_lists_on_its_screen(server):
    async def scenario():
        viewer = await watch_tasks(server)
        shown = json.loads(json.dumps(viewer.screen))
        intruder = await Client.open(server)  # on the root: Ltasks is not on its screen
        answers = {}
        for list_id in ["Ltasks", "Lnope"]:
            for ref, command in enumerate([
                    {"type": "fetch", "list": list_id, "section": "Stodo", "from": 0, "count": 50},
                    {"type": "search", "list": list_id, "query": "m"},
                    {"type": "tap", "list": list_id, "row": "Rmilk"},
                    {"type": "accessory", "list": list_id, "row": "Rmilk"},
                    {"type": "delete", "list": list_id, "rows": ["Rmilk"]},
                    {"type": "update", "list": list_id, "row": "Rmilk", "text": "x"},
                    {"type": "action", "list": list_id, "row": "Rmilk", "action": "flag"}]):
                answer = await intruder.command(command, ref)
                assert answer["code"] == "not_allowed", (command, answer)
                answers.setdefault(ref, []).append(answer["message"].replace(list_id, "L"))
        # Whether the list exists or not, the answer is the same.
        assert all(a == b for a, b in answers.values()), answers
        assert [m for m in intruder.inbox if m["type"] == "rows"] == []
        await nothing_reached(viewer, shown)
        # Once it has the list on screen, it may.
        await intruder.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 20)
        answer = await intruder.command(
            {"type": "fetch", "list": "Ltasks", "section": "Stodo", "from": 0, "count": 2}, 21)
        assert answer["type"] == "ack"
        await intruder.close()
        await viewer.close()
    asyncio.run(scenario())
