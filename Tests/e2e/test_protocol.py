"""The protocol's sessions, navigation and live editing, seen by an independent client
(Python's `websockets`) against the real `tableweb serve` on a loopback port.

`Client` keeps each screen as plain data and merges diffs by the rules of
protocol-core.md alone, so these tests check the server's diffs too."""
import asyncio
import json
import os
import random
import subprocess

import pytest
from websockets.asyncio.client import connect

from conftest import TABLEWEB


TIMEOUT = 5
HERE = os.path.dirname(__file__)


def import_fixture(tableweb, db):
    """Imports test_protocol_app.json (fixed list and row ids) into a new database file."""
    subprocess.run([tableweb, "import", os.path.join(HERE, "test_protocol_app.json"), "--db", db],
                   check=True, capture_output=True, timeout=30)


class Client:
    """One connection: `screen` is the current screen merged with every diff since."""

    def __init__(self, websocket):
        self.ws = websocket
        self.screen = None
        self.stack = None
        self.token = None
        self.inbox = []  # what arrived besides what was awaited, `presence` aside
        self.notices = []
        self.presence = {}  # the latest `presence` of each list (an extension: who else is here)

    @classmethod
    async def open(cls, server, token=None, hello=True):
        websocket = await connect(server.ws_url, subprotocols=["tableweb.v1"], origin=server.origin,
                                  open_timeout=TIMEOUT, max_size=None)
        client = cls(websocket)
        if hello:
            await client.send({"type": "hello", "session": token})
            welcome = await client.expect("welcome")
            client.token = welcome["session"]
            client.resumed = welcome["resumed"]
            await client.expect("screen")
        return client

    async def close(self):
        await self.ws.close()

    async def send(self, message):
        await self.ws.send(json.dumps(message))

    async def receive(self, timeout=TIMEOUT):
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.merge(message)
        return message

    async def expect(self, kind, timeout=TIMEOUT):
        """Reads until a message of type `kind`, merging everything before it."""
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message
            self.keep(message)

    async def command(self, message, ref):
        """Sends a command and reads until its ack or error, which it returns."""
        await self.send({**message, "ref": ref})
        while True:
            reply = await self.receive()
            if reply["type"] in ("ack", "error") and reply.get("ref") == ref:
                return reply
            self.keep(reply)

    async def settle(self, quiet=0.3):
        """Reads until nothing arrives for `quiet` seconds."""
        try:
            while True:
                self.keep(await self.receive(quiet))
        except asyncio.TimeoutError:
            pass

    def keep(self, message):
        """Adds `message` to the inbox; a `presence` is kept apart, as the latest of its list."""
        if message["type"] == "presence":
            self.presence[message["list"]] = message
        else:
            self.inbox.append(message)

    def merge(self, message):
        kind = message["type"]
        if kind == "screen":
            self.screen = message["screen"]
            self.stack = message["stack"]
        elif kind == "notice":
            self.notices.append(message["text"])
        elif kind == "diff" and self.screen and message["list"] == self.screen["list"]:
            assert message["from"] == self.screen["version"], (message, self.screen["version"])
            apply_diff(self.screen, message)

    def rows(self):
        return [[row["text"] for row in section["rows"]] for section in self.screen["sections"]]

    def row(self, text):
        for section in self.screen["sections"]:
            for row in section["rows"]:
                if row["text"] == text:
                    return row
        raise KeyError(text)


def apply_diff(screen, diff):
    """UIKit's batch-update rules: removals at `from` indexes (rows, highest first, then
    sections), placements at `to` indexes (sections, then rows, lowest first), updates."""
    sections = screen["sections"]
    ops = diff["ops"]
    moved = {}
    removals = sorted((tuple(op["at"] if op["op"] == "delete" else op["from"]) for op in ops
                       if op["op"] in ("delete", "move")), reverse=True)
    for s, r in removals:
        moved[(s, r)] = sections[s]["rows"].pop(r)
    for at in sorted((op["at"] for op in ops if op["op"] == "deleteSection"), reverse=True):
        sections.pop(at)
    for op in sorted((op for op in ops if op["op"] == "insertSection"), key=lambda op: op["at"]):
        sections.insert(op["at"], op["section"])
    placements = []
    for op in ops:
        if op["op"] == "insert":
            placements.append((tuple(op["at"]), op["row"]))
        elif op["op"] == "move":
            placements.append((tuple(op["to"]), moved[tuple(op["from"])]))
    for (s, r), row in sorted(placements, key=lambda p: p[0]):
        sections[s]["rows"].insert(r, row)
    for op in ops:
        if op["op"] == "update":
            s, r = op["at"]
            sections[s]["rows"][r] = op["row"]
        elif op["op"] == "updateSection":
            sections[op["at"]]["header"] = op["header"]
            sections[op["at"]]["footer"] = op["footer"]
    for section in sections:
        section["count"] = len(section["rows"])
    screen["version"] = diff["to"]


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


@pytest.fixture
def app_db(tmp_path):
    db = str(tmp_path / "app.sqlite")
    import_fixture(TABLEWEB, db)
    return db


@pytest.fixture
def server(launch_server, app_db):
    return launch_server(db=app_db)


def test_drill_down_three_levels_and_back(server):
    async def scenario():
        c = await Client.open(server)
        assert c.screen["list"] == "Lhome" and c.stack == ["Home"] and c.screen["back"] is None
        path = [("Lhome", "Rtrails", "tap"), ("Lregions", "Rnorth", "tap"), ("Lnorth", "Rpeak", "accessory")]
        for ref, (list_id, row, kind) in enumerate(path, 1):
            assert (await c.command({"type": kind, "list": list_id, "row": row}, ref))["type"] == "ack"
        screen = c.inbox[-1]
        assert screen["transition"] == "push" and screen["depth"] == 3
        assert c.stack == ["Home", "Regions", "North", "Peak Trail"]
        assert c.screen["back"] == "North" and c.rows() == [["Length"]]
        for ref, title in enumerate(["North", "Regions", "Home"], 10):
            await c.command({"type": "back"}, ref)
            assert c.inbox[-1]["transition"] == "pop" and c.screen["title"] == title
        assert (await c.command({"type": "back"}, 20))["code"] == "not_allowed"
        await c.close()
    run(scenario())


def test_selection_lists(server):
    async def scenario():
        settings = await Client.open(server)
        await settings.command({"type": "tap", "list": "Lhome", "row": "Rsettings"}, 1)
        tones = await Client.open(server)
        await tones.command({"type": "tap", "list": "Lhome", "row": "Rsettings"}, 1)
        await tones.command({"type": "tap", "list": "Lsettings", "row": "Rringtone"}, 2)
        assert settings.row("Ringtone")["detail"] == "Marimba"
        ack = await tones.command({"type": "tap", "list": "Lringtone", "row": "Rbell"}, 3)
        assert ack["version"] == tones.screen["version"]
        assert [r["accessory"] for r in tones.screen["sections"][0]["rows"]] == ["none", "checkmark", "none"]
        await settings.settle()
        assert settings.row("Ringtone")["detail"] == "Bell"

        colors = await Client.open(server)
        await colors.command({"type": "tap", "list": "Lhome", "row": "Rcolors"}, 1)
        await colors.command({"type": "tap", "list": "Lcolors", "row": "Rred"}, 2)
        await colors.command({"type": "tap", "list": "Lcolors", "row": "Rgreen"}, 3)
        assert [r["accessory"] for r in colors.screen["sections"][0]["rows"]] == ["checkmark", "none", "none"]
    run(scenario())


def test_a_switch_reveals_rows(server):
    async def scenario():
        a = await Client.open(server)
        b = await Client.open(server)
        for c in (a, b):
            await c.command({"type": "tap", "list": "Lhome", "row": "Rsettings"}, 1)
        assert a.rows()[1] == ["Set Automatically"]
        await a.command({"type": "toggle", "list": "Lsettings", "row": "Rauto", "on": False}, 2)
        await b.settle()
        assert b.rows()[1] == ["Set Automatically", "Time Zone", "Set Date & Time"]
        assert b.row("Set Automatically")["control"] == {"kind": "switch", "on": False}
    run(scenario())


async def edit_at_random(client, seed, count):
    """Random inserts, deletes, moves and renames of Ltasks, sent without waiting for
    their answers (people type at once); what arrives meanwhile is merged."""
    rng = random.Random(seed)
    for step in range(count):
        ids = [row["id"] for section in client.screen["sections"] for row in section["rows"]]
        row = rng.choice(ids) if ids else "Rnone"
        after = rng.choice(ids + [None]) if ids else None
        section = rng.choice(["Stodo", "Sdone"])
        kind = rng.choice(["insert", "delete", "move", "update"] if len(ids) > 4 else ["insert", "update"])
        message = {"insert": {"type": "insert", "list": "Ltasks", "section": section, "after": after,
                              "row": {"text": f"Item {seed}.{step}"}},
                   "delete": {"type": "delete", "list": "Ltasks", "rows": [row]},
                   "move": {"type": "move", "list": "Ltasks", "row": row, "section": section, "after": after},
                   "update": {"type": "update", "list": "Ltasks", "row": row, "text": f"Step {seed}.{step}"},
                   }[kind]
        await client.send({**message, "ref": step})
        while True:
            try:
                client.keep(await client.receive(0.001))
            except asyncio.TimeoutError:
                break


def test_two_people_editing_at_random_converge(server):
    async def scenario():
        a = await Client.open(server)
        b = await Client.open(server)
        for c in (a, b):
            await c.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1000)
        await asyncio.gather(edit_at_random(a, 1, 40), edit_at_random(b, 2, 40))
        await a.settle(0.5)
        await b.settle(0.5)
        errors = [m for m in a.inbox + b.inbox if m["type"] == "error"]
        assert all(m["code"] in ("not_found", "bad_message") for m in errors), errors
        assert a.screen == b.screen
        fresh = await Client.open(server)
        await fresh.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        assert fresh.screen["sections"] == a.screen["sections"]
        assert fresh.screen["version"] == a.screen["version"]
    run(scenario())


BAD_INPUTS = [
    ("not json", None, "bad_json"),
    ('{"type":"fly","ref":5}', 5, "bad_message"),
    ('{"type":"tap","list":"Lhome","ref":5}', 5, "bad_message"),
    ('{"type":"tap","list":"Lnope","row":"R1","ref":5}', 5, "not_allowed"),  # not on screen
    ('{"type":"tap","list":"Lhome","row":"Rnope","ref":5}', 5, "not_found"),
    ('{"type":"back","ref":5}', 5, "not_allowed"),
    ('{"type":"editing","on":true,"ref":5}', 5, "not_allowed"),
    ('{"type":"delete","list":"Lhome","rows":["Rabout"],"ref":5}', 5, "not_allowed"),
    ('{"type":"toggle","list":"Lsettings","row":"Rringtone","on":true,"ref":5}', 5, "not_allowed"),
    ('{"type":"hello","session":null,"ref":5}', 5, "not_allowed"),
    ("x" * 70_000, None, "too_large"),
]


@pytest.mark.parametrize("text, ref, code", BAD_INPUTS, ids=[code + str(i) for i, (_, _, code) in enumerate(BAD_INPUTS)])
def test_bad_input_gets_its_error_and_the_connection_still_works(server, text, ref, code):
    async def scenario():
        c = await Client.open(server)
        await c.ws.send(text)
        error = await c.expect("error")
        assert (error["ref"], error["code"]) == (ref, code)
        assert isinstance(error["message"], str)
        assert (await c.command({"type": "reload"}, 6))["type"] == "ack"
        assert c.inbox[-1]["type"] == "screen"
    run(scenario())


def test_resume_after_reconnect_and_restart(launch_server, app_db):
    async def first(server):
        c = await Client.open(server)
        assert c.resumed is False
        await c.command({"type": "tap", "list": "Lhome", "row": "Rtrails"}, 1)
        await c.command({"type": "tap", "list": "Lregions", "row": "Rnorth"}, 2)
        await c.close()
        again = await Client.open(server, token=c.token)
        assert again.resumed is True and again.token == c.token
        assert again.stack == ["Home", "Regions", "North"]
        await again.close()
        return c.token

    async def after_restart(server, token):
        c = await Client.open(server, token=token)
        assert c.resumed is True and c.stack == ["Home", "Regions", "North"]
        stranger = await Client.open(server, token="0" * 32)
        assert stranger.resumed is False and stranger.token != "0" * 32

    server = launch_server(db=app_db)
    token = run(first(server))
    assert server.stop() == 0
    run(after_restart(launch_server(db=app_db), token))


def test_deleting_a_list_someone_views_pops_them(server):
    async def scenario():
        editor = await Client.open(server)
        await editor.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        reader = await Client.open(server)
        await reader.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        await reader.command({"type": "tap", "list": "Ltasks", "row": "Rmilk"}, 2)
        await editor.command({"type": "delete", "list": "Ltasks", "rows": ["Rmilk"]}, 3)
        screen = await reader.expect("screen")
        assert screen["transition"] == "pop" and reader.screen["list"] == "Ltasks"
        assert "Milk" not in sum(reader.rows(), [])
        notice = await reader.expect("notice")
        assert "Milk" in notice["text"]
    run(scenario())


def test_read_only_refuses_writes(launch_server, app_db):
    server = launch_server("--read-only", db=app_db)

    async def scenario():
        c = await Client.open(server)
        await c.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        assert c.screen["editable"] is False
        for ref, message in enumerate([
                {"type": "delete", "list": "Ltasks", "rows": ["Rtea"]},
                {"type": "update", "list": "Ltasks", "row": "Rtea", "text": "x"},
                {"type": "toggle", "list": "Lsettings", "row": "Rwifi", "on": False}], 2):
            assert (await c.command(message, ref))["code"] == "not_allowed"
    run(scenario())


def test_a_reader_that_falls_behind_gets_a_fresh_screen_and_slows_nobody(server):
    """A client that stops reading: once its queue is full the server replaces it with a
    fresh screen, and what the client then reads has no version gap."""
    import socket

    async def open_slow():
        raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect(("127.0.0.1", server.port))
        websocket = await connect(server.ws_url, sock=raw, subprotocols=["tableweb.v1"],
                                  origin=server.origin, open_timeout=TIMEOUT, max_size=None,
                                  max_queue=1)
        client = Client(websocket)
        await client.send({"type": "hello", "session": None})
        await client.expect("welcome")
        await client.expect("screen")
        await client.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        return client

    async def scenario():
        slow = await open_slow()
        start = slow.screen["version"]
        writers = [await Client.open(server) for _ in range(6)]
        for writer in writers:
            await writer.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        text = "x" * 32_000
        changes = 0
        for round_ in range(100):
            for i, writer in enumerate(writers):
                await writer.send({"type": "update", "list": "Ltasks", "row": "Rtea",
                                   "text": f"{round_}.{i} {text}", "ref": 100 + round_})
                changes += 1
            for writer in writers:  # everyone else keeps up: every writer sees every change
                await writer.expect("ack")
            await asyncio.sleep(0.03)  # within the rate limit
        for writer in writers:
            await writer.settle(0.3)
            assert writer.screen["version"] == start + changes
        # Now the slow reader reads everything that reached it.
        slow.inbox.clear()
        await slow.settle(1.0)
        kinds = [m["type"] for m in slow.inbox]
        assert "screen" in kinds, "the full queue was replaced by a fresh screen"
        assert slow.screen["version"] == start + changes
        assert slow.screen["sections"] == writers[0].screen["sections"]
    run(scenario())
