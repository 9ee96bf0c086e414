"""Access (protocol v1.1) from the outside: `tableweb access grant|list|revoke`, a real
`tableweb serve`, Python's `websockets` and `tableweb client --access`."""
import asyncio
import json
import os
import sqlite3
import subprocess
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from conftest import TABLEWEB
from test_protocol import import_fixture

TIMEOUT = 5


def access(*args, db):
    return subprocess.run([TABLEWEB, "access", *args, "--db", db], capture_output=True,
                          text=True, timeout=20)


def grant(db, role, name):
    result = access("grant", "--role", role, "--name", name, db=db)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()[-1]


@pytest.fixture
def granted(tmp_path, launch_server):
    db = str(tmp_path / "t.sqlite")
    import_fixture(TABLEWEB, db)
    credentials = {"editor": grant(db, "editor", "Ed"), "viewer": grant(db, "viewer", "Vi")}
    return db, credentials, launch_server(db=db)


async def hello(server, credential):
    """Connects and says hello with `credential`; returns the socket and the first reply."""
    ws = await connect(server.ws_url, subprotocols=["tableweb.v1"], origin=server.origin,
                       open_timeout=TIMEOUT)
    message = {"type": "hello", "session": None}
    if credential is not None:
        message["access"] = credential
    await ws.send(json.dumps(message))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


async def expect_4401(ws):
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
    assert ws.close_code == 4401


async def until(ws, kind):
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if message["type"] == kind:
            return message


def test_grant_prints_the_credential_last_and_how_to_use_it_on_stderr(tmp_path):
    db = str(tmp_path / "t.sqlite")
    result = access("grant", "--role", "viewer", "--name", "Ann", db=db)
    assert result.returncode == 0, result.stderr
    credential = result.stdout.splitlines()[-1]
    assert len(credential) >= 22  # 128 bits of base64url at least
    assert f"#access={credential}" in result.stderr
    again = access("grant", "--role", "viewer", "--name", "Ann", db=db)
    assert again.returncode != 0 and "already has a grant" in again.stderr
    bad = access("grant", "--role", "owner", "--name", "Bo", db=db)
    assert bad.returncode != 0 and "--role" in bad.stderr
    listed = access("list", db=db)
    assert "Ann" in listed.stdout and "viewer" in listed.stdout and "never" in listed.stdout
    assert credential not in listed.stdout
    missing = access("revoke", "Nobody", db=db)
    assert missing.returncode != 0 and "no grant named" in missing.stderr


def test_no_or_a_wrong_credential_is_unauthorized_and_closed_4401(granted):
    db, _, server = granted

    async def run():
        for credential in (None, "wrong-credential"):
            ws, reply = await hello(server, credential)
            assert reply["type"] == "error" and reply["code"] == "unauthorized"
            await expect_4401(ws)
    asyncio.run(run())


def test_roles_writes_and_the_record_of_who_made_them(granted):
    db, credentials, server = granted

    async def run():
        editor, welcome = await hello(server, credentials["editor"])
        assert (welcome["type"], welcome["role"], welcome["user"]) == ("welcome", "editor", "Ed")
        viewer, welcome = await hello(server, credentials["viewer"])
        assert (welcome["role"], welcome["user"]) == ("viewer", "Vi")
        for ws in (editor, viewer):
            await until(ws, "screen")
            await ws.send(json.dumps({"type": "tap", "list": "Lhome", "row": "Rtasks"}))
        assert (await until(editor, "screen"))["screen"]["editable"] is True
        assert (await until(viewer, "screen"))["screen"]["editable"] is False
        for command in ({"type": "delete", "list": "Ltasks", "rows": ["Reggs"], "ref": 1},
                        {"type": "editing", "on": True, "ref": 2},
                        {"type": "update", "list": "Ltasks", "row": "Reggs", "text": "x", "ref": 3}):
            await viewer.send(json.dumps(command))
            error = await until(viewer, "error")
            assert (error["ref"], error["code"]) == (command["ref"], "not_allowed")
        await editor.send(json.dumps({"type": "delete", "list": "Ltasks", "rows": ["Reggs"], "ref": 4}))
        assert (await until(editor, "ack"))["ref"] == 4
        assert (await until(viewer, "diff"))["list"] == "Ltasks"  # a viewer still sees changes
    asyncio.run(run())
    log = sqlite3.connect(db).execute("SELECT list, command, user, role FROM change_log").fetchall()
    # `tableweb import` is recorded too, by nobody named
    assert log == [("", "import", None, "editor"), ("Ltasks", "delete", "Ed", "editor")]
    export = subprocess.run([TABLEWEB, "export", "--db", db], capture_output=True, text=True,
                            timeout=20)
    assert export.returncode == 0
    assert "Ed" not in export.stdout and credentials["editor"] not in export.stdout
    listed = access("list", db=db).stdout
    assert "never" not in listed.splitlines()[1]  # Ed's last use is recorded


def test_the_database_file_holds_no_credential(granted):
    db, credentials, server = granted

    async def run():
        ws, _ = await hello(server, credentials["editor"])
        await ws.close()
    asyncio.run(run())
    server.stop()
    files = [path for path in (db, db + "-wal") if os.path.exists(path)]
    contents = b"".join(open(path, "rb").read() for path in files)
    assert b"Ed" in contents  # the grant is there…
    for credential in credentials.values():
        assert credential.encode() not in contents  # …its credential is not


def test_revocation_by_another_process_closes_within_2_seconds(granted):
    db, credentials, server = granted

    async def run():
        viewer, welcome = await hello(server, credentials["viewer"])
        assert welcome["type"] == "welcome"
        editor, _ = await hello(server, credentials["editor"])
        start = time.monotonic()
        assert access("revoke", "Vi", db=db).returncode == 0
        error = await until(viewer, "error")
        assert error["code"] == "unauthorized"
        await expect_4401(viewer)
        assert time.monotonic() - start < 2.0
        await editor.send(json.dumps({"type": "reload", "ref": 9}))
        assert (await until(editor, "screen"))["type"] == "screen"  # the others stay
        again, reply = await hello(server, credentials["viewer"])
        assert reply["code"] == "unauthorized"
    asyncio.run(run())


def test_failed_hellos_are_limited_per_address(granted):
    _, credentials, server = granted

    async def run():
        codes = []
        for _ in range(12):
            ws, reply = await hello(server, "guess")
            codes.append(reply["code"])
            await expect_4401(ws)
        assert codes[:10] == ["unauthorized"] * 10
        assert codes[10:] == ["rate_limited"] * 2
        ws, reply = await hello(server, credentials["editor"])
        assert reply["code"] == "rate_limited"  # even a good one waits: the address is limited
    asyncio.run(run())


def test_headless_client_with_access(granted):
    _, credentials, server = granted

    def client(*args):
        return subprocess.run([TABLEWEB, "client", server.ws_url, "--json", *args],
                              input="tap Tasks\n", capture_output=True, text=True, timeout=20)
    result = client("--access", credentials["viewer"])
    assert result.returncode == 0, result.stderr
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    assert messages[0]["role"] == "viewer"
    assert messages[2]["screen"]["editable"] is False
    refused = client()
    assert "unauthorized" in refused.stdout
    assert refused.returncode != 0
    # base64url credentials begin with "-" one time in 64: such a value is still the
    # option's value (the server refuses it), not a usage error
    dashed = client("--access", "-" + "A" * 42)
    assert "Missing value" not in dashed.stderr, dashed.stderr
    assert "unauthorized" in dashed.stdout
    assert dashed.returncode != 0


def test_serve_refuses_a_non_loopback_host_with_no_grants(tmp_path):
    result = subprocess.run(
        [TABLEWEB, "serve", "--host", "0.0.0.0", "--port", "0", "--db", str(tmp_path / "t.sqlite"), "--demo"],
        capture_output=True, text=True, timeout=20)
    assert result.returncode == 1
    assert "has no access grants" in result.stderr and "--open" in result.stderr
