"""Several `tableweb serve` processes on one PostgreSQL database (issue 12), end to end:

- three servers, clients on each making random concurrent edits (inserts, deletes, moves,
  updates, switches): every view equals the others, a fresh screen and `export`; one
  server killed with SIGKILL mid-storm, its clients resume their sessions (token + `have`)
  on another: the same stack, caught up with no gap, nothing acknowledged lost;
- nginx (Debian's, Tests/e2e/nginx.conf.template, the config docs/deploying.md shows) in
  front of three servers, round robin: clients connect through it, and a reconnect lands
  on another server and resumes;
- PostgreSQL stopped (`-m fast`) and restarted (`-m immediate`) during an edit storm:
  commands meanwhile get `error` `internal` ("the database cannot be reached"), a `hello`
  the same and close code 1013 (try again later, not 4401), `/healthz` says 503 while it is
  down and 200 after, the servers reconnect with back-off (logged once
  per outage), nothing acknowledged is lost, viewers get the missed diffs or a fresh screen,
  never a gap (`Client` asserts every diff follows the last).
"""
import asyncio
import copy
import json
import os
import random
import shutil
import signal
import subprocess
import time
import types
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed

from conftest import TABLEWEB
from postgres_cluster import free_port
from test_postgres_store import postgres  # noqa: F401 (fixture: a throwaway cluster for this module)
from test_protocol import HERE, Client, edit_at_random, run
from test_two_servers import export_texts, resume

APP = os.path.join(HERE, "test_protocol_app.json")
TEMPLATE = os.path.join(HERE, "nginx.conf.template")


def servers_on_one_database(postgres, launch_server, count):
    url = postgres.new_database()
    subprocess.run([TABLEWEB, "import", APP, "--db", url], check=True, capture_output=True, timeout=60)
    return url, [launch_server(db=url) for _ in range(count)]


async def open_list(server, row, token=None):
    """A client on `server` that tapped `row` of Home (Rtasks, Rsettings), inbox cleared."""
    client = await Client.open(server, token=token)
    reply = await client.command({"type": "tap", "list": "Lhome", "row": row}, 1000)
    assert reply["type"] == "ack", reply
    client.inbox.clear()
    return client


async def flip_switches(client, seed, count):
    """Random toggles of Lsettings' two switches (Rauto shows and hides two rows)."""
    rng = random.Random(seed)
    for step in range(count):
        await client.send({"type": "toggle", "list": "Lsettings", "row": rng.choice(["Rwifi", "Rauto"]),
                           "on": rng.random() < 0.5, "ref": step})
        await asyncio.sleep(0.01)


async def storm(client, name, acked, answered, stop, interval=0.02, section="Sdone"):
    """Inserts into a section of Ltasks every `interval` until `stop` is set, answers read
    meanwhile: `acked` gets the texts acknowledged, `answered` every ack and error by ref.
    Ends quietly when the connection drops (its server was killed)."""
    sent = []

    async def answers():
        while True:
            message = await client.receive(10)
            if message["type"] in ("ack", "error") and message.get("ref") is not None:
                answered[message["ref"]] = {**message, "at": time.monotonic()}
                if message["type"] == "ack":
                    acked.add(f"{name} {message['ref']}")

    reading = asyncio.ensure_future(answers())
    try:
        ref = 0
        while not stop.is_set():
            ref += 1
            await client.send({"type": "insert", "list": "Ltasks", "section": section, "after": None,
                               "row": {"text": f"{name} {ref}"}, "ref": ref})
            sent.append(ref)
            await asyncio.sleep(interval)
        for _ in range(200):  # every command is answered, ack or error
            if len(answered) >= len(sent) or reading.done():
                break
            await asyncio.sleep(0.05)
    except Exception:  # the connection to a killed server drops
        pass
    finally:
        reading.cancel()
    return sent


def export_switches(db):
    """Lsettings' switches as `tableweb export` writes them: {row id: on}."""
    data = json.loads(subprocess.run([TABLEWEB, "export", "--db", db], check=True, capture_output=True,
                                     text=True, timeout=30).stdout)
    settings = data["sections"][0]["rows"][0]["children"]
    assert settings["id"] == "Lsettings"
    return {row["id"]: row["switch"] for section in settings["sections"] for row in section["rows"]
            if "switch" in row}


def screen_switches(screen):
    return {row["id"]: row["control"]["on"] for section in screen["sections"] for row in section["rows"]
            if (row.get("control") or {}).get("kind") == "switch"}


def texts(client):
    return {text for section in client.rows() for text in section}


def test_three_servers_converge_and_a_killed_servers_sessions_resume_on_another(postgres, launch_server):
    url, servers = servers_on_one_database(postgres, launch_server, 3)
    doomed = servers[0]

    async def scenario():
        editors = [await open_list(server, "Rtasks") for server in servers]
        switchers = [await open_list(server, "Rsettings") for server in servers]
        watchers = [await open_list(server, "Rtasks") for server in servers]
        # Random inserts, deletes, moves and updates through all three at once, switches too.
        await asyncio.gather(*(edit_at_random(editor, seed, 40) for seed, editor in enumerate(editors, 1)),
                             *(flip_switches(s, seed, 20) for seed, s in enumerate(switchers, 7)))
        for client in editors + switchers + watchers:
            await client.settle(0.6)
        errors = [m for c in editors + switchers for m in c.inbox if m["type"] == "error"]
        assert all(m["code"] in ("not_found", "bad_message") for m in errors), errors
        assert not [m for w in watchers for m in w.inbox if m["type"] == "screen"]  # diffs only
        assert editors[0].screen == editors[1].screen == editors[2].screen
        assert all(w.screen == editors[0].screen for w in watchers)
        assert switchers[0].screen == switchers[1].screen == switchers[2].screen
        for server in servers:
            assert (await open_list(server, "Rtasks")).screen == editors[0].screen
            assert (await open_list(server, "Rsettings")).screen == switchers[0].screen
        assert export_texts(url, "Ltasks") == editors[0].rows()
        assert export_switches(url) == screen_switches(switchers[0].screen)

        # An insert storm through all three; server 0 is killed once a few of its are acked.
        acked = [set(), set(), set()]
        answered = [{}, {}, {}]
        stop = asyncio.Event()
        storms = asyncio.gather(*(storm(editor, f"S{i}", acked[i], answered[i], stop)
                                  for i, editor in enumerate(editors)))
        for _ in range(500):
            if len(acked[0]) >= 5:
                break
            await asyncio.sleep(0.01)
        kept = {"editor": editors[0], "watcher": watchers[0]}
        doomed.process.send_signal(signal.SIGKILL)
        doomed.process.wait()
        killed_at = time.monotonic()
        await asyncio.sleep(0.5)
        stop.set()
        await storms
        assert 0 < len(acked[0]) and len(acked[1]) > 10 and len(acked[2]) > 10

        # The killed server's clients resume on server 1: same session, caught up by diffs.
        resumed = {}
        for role, client in kept.items():
            back = await resume(servers[1], client.token, client.screen)
            assert back.welcome["resumed"] is True and back.welcome.get("caughtUp") is True, back.welcome
            assert back.welcome["session"] == client.token
            assert {m["type"] for m in back.inbox} == {"diff"}  # the missed diffs, no screen
            resumed[role] = back
        took = time.monotonic() - killed_at
        survivors = [watchers[1], watchers[2], *resumed.values()]
        for client in survivors:
            await client.settle(0.3)
        for back in resumed.values():  # caught up: what it merged is what a reload shows
            merged = copy.deepcopy(back.screen)
            assert (await back.command({"type": "reload"}, 1))["type"] == "ack"
            await back.settle(0.3)
            assert back.stack == ["Home", "Tasks"]  # the same session's stack
            assert back.screen == merged
        shown = texts(watchers[1])
        assert set().union(*acked) <= shown  # nothing acknowledged lost, the killed server's too
        assert all(c.screen == watchers[1].screen for c in survivors)
        fresh = await open_list(servers[2], "Rtasks")
        assert fresh.screen == watchers[1].screen
        assert export_texts(url, "Ltasks") == watchers[1].rows()
        print(f"\nkilled server's 2 sessions resumed on another in {took:.2f} s; "
              f"acked {[len(a) for a in acked]}")
    run(scenario())


def start_nginx(tmp_path, servers):
    """Debian's nginx as this test's own foreground process, on a free loopback port."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        pytest.skip("nginx is not installed (make deps)")
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    port = free_port()
    config = open(TEMPLATE).read() \
        .replace("{{prefix}}", str(prefix)).replace("{{listen}}", f"127.0.0.1:{port}") \
        .replace("{{servers}}", "\n".join(f"    server 127.0.0.1:{s.port};" for s in servers))
    (prefix / "nginx.conf").write_text(config)
    process = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                                "-e", str(prefix / "error.log"), "-g", "daemon off;"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
                if answer.status == 200:
                    break
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None:
                raise RuntimeError(f"nginx did not start: {process.stdout.read()}")
            time.sleep(0.05)
    proxy = types.SimpleNamespace(ws_url=f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}",
                                  url=f"http://127.0.0.1:{port}/")
    return process, proxy


def upstream(client):
    return client.ws.response.headers["X-Upstream"]


def test_nginx_balances_websockets_round_robin_and_a_reconnect_resumes_on_another_server(
        postgres, launch_server, tmp_path):
    # docs/deploying.md shows this very configuration.
    with open(TEMPLATE) as template, open(os.path.join(HERE, "..", "..", "docs", "deploying.md")) as docs:
        assert template.read() in docs.read()
    url, servers = servers_on_one_database(postgres, launch_server, 3)
    nginx, proxy = start_nginx(tmp_path, servers)
    ports = {f"127.0.0.1:{s.port}": s for s in servers}

    async def scenario():
        # The page comes through nginx too.
        with urllib.request.urlopen(proxy.url, timeout=5) as answer:
            assert answer.status == 200 and b"<script" in answer.read()
        clients = [await open_list(proxy, "Rtasks") for _ in range(3)]
        assert {upstream(c) for c in clients} == set(ports)  # round robin: one on each
        # Round robin: the next connection goes to clients[0]'s server, not clients[1]'s.
        viewer = clients[1]
        kept, token, first = copy.deepcopy(viewer.screen), viewer.token, upstream(viewer)
        await viewer.close()
        for ref, text in enumerate(["North", "South", "East"], 1):
            reply = await clients[2].command({"type": "insert", "list": "Ltasks", "section": "Stodo",
                                              "after": None, "row": {"text": text}}, ref)
            assert reply["type"] == "ack"
        back = await resume(proxy, token, kept)
        assert upstream(back) != first  # no stickiness: another server took the session
        assert back.welcome["resumed"] is True and back.welcome.get("caughtUp") is True
        assert [m["from"] for m in back.inbox] == [kept["version"], kept["version"] + 1, kept["version"] + 2]
        assert back.screen == (await open_list(proxy, "Rtasks")).screen

        # Its server killed, the client reconnects through nginx to a live one and resumes.
        held = copy.deepcopy(back.screen)
        victim = ports[upstream(back)]
        victim.process.send_signal(signal.SIGKILL)
        victim.process.wait()
        writer = next(c for c in (clients[0], clients[2]) if upstream(c) != upstream(back))
        assert (await writer.command({"type": "insert", "list": "Ltasks", "section": "Sdone", "after": None,
                                      "row": {"text": "West"}}, 9))["type"] == "ack"
        again = await resume(proxy, token, held)
        assert upstream(again) in ports and upstream(again) != f"127.0.0.1:{victim.port}"
        assert again.welcome["resumed"] is True and again.welcome.get("caughtUp") is True
        assert [m["type"] for m in again.inbox] == ["diff"]
        assert again.screen == (await open_list(proxy, "Rtasks")).screen
        assert export_texts(url, "Ltasks") == again.rows()
    try:
        run(scenario())
    finally:
        nginx.send_signal(signal.SIGQUIT)  # graceful: finish and exit
        try:
            nginx.wait(10)
        except subprocess.TimeoutExpired:
            nginx.kill()
            nginx.wait()


def health(server):
    try:
        with urllib.request.urlopen(server.url + "healthz", timeout=2) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_postgresql_restarted_during_an_edit_storm_loses_nothing_acknowledged(postgres, launch_server):
    url, servers = servers_on_one_database(postgres, launch_server, 2)

    async def wait_for_health(status, limit=15):
        start = time.monotonic()
        while time.monotonic() - start < limit:
            if [await asyncio.to_thread(health, s) for s in servers] == [status] * len(servers):
                return time.monotonic() - start
            await asyncio.sleep(0.02)
        raise AssertionError(f"/healthz never said {status}")

    async def scenario():
        editors = [await open_list(server, "Rtasks") for server in servers]
        watchers = [await open_list(server, "Rtasks") for server in servers]
        acked, answered = [set(), set()], [{}, {}]
        stop = asyncio.Event()
        # Each into a section of its own, so that both stay within a screen's first 300 rows.
        storms = asyncio.gather(*(storm(e, f"P{i}", acked[i], answered[i], stop, 0.04, ["Sdone", "Stodo"][i])
                                  for i, e in enumerate(editors)))
        await asyncio.sleep(0.7)
        # 1: a clean shutdown, 1.5 s down, started again.
        await asyncio.to_thread(postgres.stop_server, "fast")
        down = time.monotonic()
        assert await wait_for_health(503) < 2  # the database is reported down while it is
        # A page reconnecting now is told to come back (1013), not that it needs access (4401).
        late = await Client.open(servers[0], hello=False)
        await late.send({"type": "hello", "session": editors[0].token})
        refusal = await late.expect("error")
        assert refusal["code"] == "internal" and "cannot be reached" in refusal["message"]
        with pytest.raises(ConnectionClosed) as closed:
            await late.receive()
        assert closed.value.rcvd.code == 1013
        await asyncio.sleep(1.5)
        await asyncio.to_thread(postgres.start)
        started = time.monotonic()
        outage = started - down
        healthy = await wait_for_health(200)
        await asyncio.sleep(0.7)
        # 2: killed and restarted at once (crash recovery).
        start = time.monotonic()
        await asyncio.to_thread(postgres.restart, "immediate")
        restart = time.monotonic() - start
        await asyncio.sleep(2)
        stop.set()
        sent = await storms
        await wait_for_health(200)

        for i, editor in enumerate(editors):
            assert sorted(answered[i]) == sent[i]  # every command answered, none dropped
            errors = [m for m in answered[i].values() if m["type"] == "error"]
            assert errors  # the outage was seen
            assert all(m["code"] == "internal" and "cannot be reached" in m["message"] for m in errors), errors
            # After the restarts, commands go through again on every server.
            for ref in range(10_000, 10_100):
                reply = await editor.command({"type": "insert", "list": "Ltasks", "section": "Stodo",
                                              "after": None, "row": {"text": f"after {i}"}}, ref)
                if reply["type"] == "ack":
                    break
                await asyncio.sleep(0.1)
            assert reply["type"] == "ack", reply
            acked[i].add(f"after {i}")
        for client in editors + watchers:
            await client.settle(0.6)
        shown = texts(watchers[0])
        assert set().union(*acked) <= shown  # nothing acknowledged lost
        assert all(c.screen == watchers[0].screen for c in editors + watchers)
        for server in servers:
            assert (await open_list(server, "Rtasks")).screen == watchers[0].screen
        assert export_texts(url, "Ltasks") == watchers[0].rows()
        errors = sum(1 for a in answered for m in a.values() if m["type"] == "error")
        # How long after PostgreSQL was back each server acknowledged again.
        back = [min(m["at"] for m in a.values() if m["type"] == "ack" and m["at"] > started) - started
                for a in answered]
        print(f"\noutage (stop -m fast .. started) {outage:.2f} s, /healthz 200 again {healthy:.2f} s"
              f" after start, first ack again after {', '.join(f'{b:.2f}' for b in back)} s;"
              f" restart -m immediate {restart:.2f} s; acked {[len(a) for a in acked]}, errors {errors}")
        return errors

    errors = run(scenario())
    for server in servers:
        log = "".join(server.output)
        # Logged once per outage and connection, never per attempt.
        lost = log.count("PostgreSQL cannot be reached; reconnecting with back-off")
        assert 1 <= lost <= 2 * 4, log[-3000:]
        assert log.count("reconnected to PostgreSQL") >= 1
        assert lost < errors
        # Nor does anything else report the outage per poll or per command.
        # (The server's reports go to its configured logger, `tableweb`.)
        assert log.count("error tableweb:") <= 4 * 2, log[-3000:]
