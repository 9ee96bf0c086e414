"""The example apps (Examples/Files, Examples/Monitor): packages of their own that serve
their own data through tableweb as a library. Changes made by their code, not by any
command, reach a client as diffs. `make test` builds them first."""
import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import time

import pytest
import websockets

from conftest import ROOT, TABLEWEB
from test_protocol import Client


def example_binary(name, product):
    path = os.path.join(ROOT, "Examples", name, ".build", "debug", product)
    assert os.path.exists(path), f"{path} is missing: build it with `make examples`"
    return path


class Example:
    """A running example: `ws_url` and `origin`, as `Client.open` wants them."""

    def __init__(self, *command):
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        line = self.process.stdout.readline()
        port = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert port, f"no URL in {line!r}: {self.process.stderr.read() if self.process.poll() else ''}"
        self.origin = f"http://127.0.0.1:{port.group(1)}"
        self.ws_url = f"ws://127.0.0.1:{port.group(1)}/ws"

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)


@pytest.fixture
def example():
    running = []

    def start(*command):
        running.append(Example(*command))
        return running[-1]
    yield start
    for each in running:
        each.stop()


def ids(screen):
    return [[row["id"] for row in section["rows"]] for section in screen["sections"]]


def test_files_serves_a_folder_and_a_new_file_arrives_as_an_insert(example, tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "cat.jpg").write_bytes(b"x" * 2048)
    files = example(example_binary("Files", "files"), "--port", "0", "--root", str(tmp_path))

    async def scenario():
        client = await Client.open(files)
        assert ids(client.screen) == [["photos"], ["notes.txt"]]
        row = client.screen["sections"][1]["rows"][0]
        assert row["style"] == "value1" and row["detail"].startswith("5 bytes")
        assert client.screen["sections"][0]["rows"][0]["accessory"] == "disclosure"
        (tmp_path / "todo.txt").write_text("buy milk")
        diff = await client.expect("diff")
        assert [op["op"] for op in diff["ops"]] == ["insert"]
        assert diff["ops"][0]["row"]["id"] == "todo.txt"
        assert ids(client.screen) == [["photos"], ["notes.txt", "todo.txt"]]
        await client.send({"type": "tap", "list": "/", "row": "photos"})
        pushed = await client.expect("screen")
        assert pushed["stack"] == [tmp_path.name, "photos"]
        assert ids(client.screen) == [[], ["cat.jpg"]]
        (tmp_path / "photos" / "cat.jpg").unlink()
        diff = await client.expect("diff")
        assert diff["ops"] == [{"op": "delete", "at": [1, 0]}]
        await client.close()
    asyncio.run(scenario())


def test_files_reaches_only_folders_below_its_root(example, tmp_path):
    root = tmp_path / "served"
    (root / "photos").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("top secret")
    (root / "elsewhere").symlink_to(outside, target_is_directory=True)
    files = example(example_binary("Files", "files"), "--port", "0", "--root", str(root))

    async def scenario():
        client = await Client.open(files)
        for ref, list_id in enumerate(["/../../../etc", "/..", "/../outside", "/photos/../../outside",
                                       "/elsewhere", "/./photos", "etc"]):
            answer = await client.command(
                {"type": "fetch", "list": list_id, "section": "files", "from": 0, "count": 50}, ref)
            assert answer["code"] == "not_allowed", (list_id, answer)
        # A symbolic link is listed as a file: its row opens nothing.
        await client.command({"type": "tap", "list": "/", "row": "elsewhere"}, 20)
        assert client.stack == ["served"]
        assert [m for m in client.inbox if m["type"] in ("rows", "screen")] == []
        # A folder below the root opens, and its rows are fetched.
        await client.command({"type": "tap", "list": "/", "row": "photos"}, 21)
        assert client.stack == ["served", "photos"]
        answer = await client.command(
            {"type": "fetch", "list": "/photos", "section": "files", "from": 0, "count": 50}, 22)
        assert answer["type"] == "ack"
        await client.close()
        # The folder becomes a link to elsewhere: a session that had it open resumes above it.
        (root / "photos").rmdir()
        (root / "photos").symlink_to(outside, target_is_directory=True)
        again = await Client.open(files, token=client.token)
        await again.settle()
        assert again.resumed and again.stack == ["served"]
        assert "secret.txt" not in json.dumps(again.screen) + json.dumps(again.inbox)
        await again.close()
    asyncio.run(scenario())


def test_monitor_sends_diffs_with_no_command(example):
    monitor = example(example_binary("Monitor", "monitor"), "--port", "0")

    async def scenario():
        client = await Client.open(monitor)
        assert [s["header"] for s in client.screen["sections"]] == ["Load", "Memory", "Busiest processes"]
        assert len(client.screen["sections"][2]["rows"]) == 10
        version = client.screen["version"]
        diff = await client.expect("diff")  # nobody sent anything
        assert diff["from"] == version
        busiest = client.screen["sections"][2]["rows"][0]
        await client.send({"type": "tap", "list": "machine", "row": busiest["id"]})
        pushed = await client.expect("screen")
        assert [row["id"] for row in client.screen["sections"][0]["rows"]][:2] == ["PID", "State"]
        assert pushed["stack"][-1] == busiest["text"]
        await client.close()
    asyncio.run(scenario())


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("name", ["Files", "Monitor", "Hello"])
def test_ctrl_c_or_sigterm_closes_an_example_gracefully(name, stop, tmp_path):
    """Each example runs in a ServiceGroup: the signal is a graceful shutdown, so an open
    connection gets a close frame with 1001 (going away) and the program ends with 0."""
    if name == "Hello":
        context = start_hello()
    else:
        arguments = ["--port", "0"] + (["--root", str(tmp_path)] if name == "Files" else [])
        context = contextlib.nullcontext(
            Example(example_binary(name, name.lower()), *arguments))
    with context as address:
        process = address.process

        async def scenario():
            client = await Client.open(address)
            process.send_signal(stop)
            try:
                while True:
                    await asyncio.wait_for(client.ws.recv(), 10)
            except websockets.exceptions.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
        try:
            assert asyncio.run(scenario()) == 1001
            assert process.wait(timeout=10) == 0, process.stderr.read()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def test_the_tutorial_in_docs_is_examples_hello_and_it_serves_a_live_list(tmp_path):
    hello_dir = os.path.join(ROOT, "Examples", "Hello")
    with open(os.path.join(ROOT, "docs", "swift-api.md")) as f:
        tutorial = f.read()
    for name in ("Package.swift", os.path.join("Sources", "hello", "main.swift")):
        with open(os.path.join(hello_dir, name)) as f:
            assert f.read().strip() in tutorial, f"docs/swift-api.md no longer shows Examples/Hello/{name}"

    with start_hello() as address:
        async def scenario():
            client = await Client.open(address)
            assert ids(client.screen) == [["Apples", "Bananas", "Cherries"]]
            diff = await client.expect("diff")
            assert diff["ops"][0]["op"] == "insert" and diff["ops"][0]["row"]["id"] == "Dates"
            await client.close()
        asyncio.run(scenario())


def test_the_headless_client_follows_what_the_app_changes():
    with start_hello() as address:
        result = subprocess.run(
            [TABLEWEB, "client", address.ws_url], input="wait 2600\n",
            capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
        assert "Cherries" in result.stdout and "Dates" in result.stdout


@contextlib.contextmanager
def start_hello():
    """Examples/Hello on a free port; yields its address once it answers."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([example_binary("Hello", "hello"), str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    class Address:
        process = None
        origin = f"http://127.0.0.1:{port}"
        url = f"http://127.0.0.1:{port}/"
        ws_url = f"ws://127.0.0.1:{port}/ws"
    Address.process = process
    try:
        for _ in range(200):
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield Address
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
