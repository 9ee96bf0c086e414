"""Two `tableweb serve` processes on one SQLite file behave as one server: each publishes
the other's commits from the change log (in order, no gaps, each once, which `Client`
asserts on every diff), a client resumes with `have` on either with exactly the diffs it
missed, an import reaches viewers as a screen and a notice, and `kill -9` of one loses
nothing it acknowledged."""
import asyncio
import copy
import json
import os
import signal
import subprocess

from conftest import TABLEWEB
from test_protocol import HERE, Client, app_db, edit_at_random, run  # noqa: F401 (fixture)


async def open_tasks(server, token=None):
    client = await Client.open(server, token=token)
    await client.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1000)
    client.inbox.clear()
    return client


def export_texts(db, list_id):
    """The texts of `list_id`'s rows, section by section, as `tableweb export` writes them."""
    data = json.loads(subprocess.run([TABLEWEB, "export", "--db", db], check=True, capture_output=True,
                                     text=True, timeout=30).stdout)

    def find(screen):
        if screen.get("id") == list_id:
            return screen
        for section in screen["sections"]:
            for row in section["rows"]:
                found = row.get("children") and find(row["children"])
                if found:
                    return found
        return None
    return [[row["text"] for row in section["rows"]] for section in find(data)["sections"]]


def test_random_edits_through_two_servers_converge(launch_server, app_db):
    one, two = launch_server(db=app_db), launch_server(db=app_db)

    async def scenario():
        a, b = await open_tasks(one), await open_tasks(two)
        watcher = await open_tasks(two)
        await asyncio.gather(edit_at_random(a, 1, 40), edit_at_random(b, 2, 40))
        for c in (a, b, watcher):
            await c.settle(0.5)
        errors = [m for m in a.inbox + b.inbox if m["type"] == "error"]
        assert all(m["code"] in ("not_found", "bad_message") for m in errors), errors
        assert not [m for m in watcher.inbox if m["type"] == "screen"]  # diffs only, none missed
        assert a.screen == b.screen == watcher.screen
        for server in (one, two):
            fresh = await open_tasks(server)
            assert fresh.screen["sections"] == a.screen["sections"]
            assert fresh.screen["version"] == a.screen["version"]
        assert export_texts(app_db, "Ltasks") == a.rows()
    run(scenario())


async def resume(server, token, screen):
    """A new connection that says hello with `have`; returns it once the server is quiet."""
    client = await Client.open(server, hello=False)
    client.screen = copy.deepcopy(screen)
    await client.send({"type": "hello", "session": token,
                       "have": {"list": screen["list"], "version": screen["version"]}})
    client.welcome = await client.expect("welcome")
    await client.settle(0.3)
    return client


def test_a_viewer_resumes_with_exactly_the_missed_diffs_on_either_server(launch_server, app_db):
    one, two = launch_server(db=app_db), launch_server(db=app_db)

    async def scenario():
        viewer = await open_tasks(one)
        kept, token = copy.deepcopy(viewer.screen), viewer.token
        await viewer.close()
        editor = await open_tasks(one)
        for ref, text in enumerate(["One", "Two", "Three", "Four"], 1):
            await editor.command({"type": "insert", "list": "Ltasks", "section": "Stodo", "after": None,
                                  "row": {"text": text}}, ref)
        await editor.command({"type": "delete", "list": "Ltasks", "rows": ["Rtea"]}, 9)
        for server in (one, two):
            back = await resume(server, token, kept)
            assert back.welcome["resumed"] is True and back.welcome.get("caughtUp") is True
            assert [m["type"] for m in back.inbox] == ["diff"] * 5
            assert [m["from"] for m in back.inbox] == list(range(kept["version"], kept["version"] + 5))
            fresh = await open_tasks(server)
            assert back.screen["sections"] == fresh.screen["sections"]
            assert back.screen["version"] == fresh.screen["version"]
            await back.close()
    run(scenario())


def test_past_the_logs_retention_a_resume_gets_a_screen(launch_server, app_db):
    one, two = launch_server("--log-keep", "2", db=app_db), launch_server(db=app_db)

    async def scenario():
        viewer = await open_tasks(one)
        kept, token = copy.deepcopy(viewer.screen), viewer.token
        await viewer.close()
        editor = await open_tasks(one)
        for ref in range(1, 5):
            await editor.command({"type": "insert", "list": "Ltasks", "section": "Stodo", "after": None,
                                  "row": {"text": f"New {ref}"}}, ref)
        back = await resume(two, token, kept)
        assert back.welcome["resumed"] is True and not back.welcome.get("caughtUp")
        assert [m["type"] for m in back.inbox] == ["screen"]
    run(scenario())


def test_an_import_while_serving_sends_a_screen_and_a_notice(launch_server, app_db, tmp_path):
    server = launch_server(db=app_db)

    async def scenario():
        viewer = await open_tasks(server)
        with open(os.path.join(HERE, "test_protocol_app.json")) as f:
            changed = f.read().replace('"Eggs"', '"Duck eggs"')
        path = tmp_path / "changed.json"
        path.write_text(changed)
        subprocess.run([TABLEWEB, "import", str(path), "--db", app_db], check=True, capture_output=True,
                       timeout=30)
        await viewer.expect("screen")
        await viewer.settle(0.3)
        assert "Duck eggs" in viewer.rows()[0]
        assert viewer.notices
    run(scenario())


def test_kill_9_of_one_server_loses_nothing_acknowledged(launch_server, app_db):
    doomed, survivor = launch_server(db=app_db), launch_server(db=app_db)

    async def storm(client, name, count, acked):
        """Inserts sent 5 ms apart (within the rate limit's burst), acks read meanwhile."""
        async def answers():
            while len(acked) < count:
                message = await client.receive(2)
                if message["type"] == "ack":
                    acked.add(f"{name} {message['ref']}")
        reading = asyncio.ensure_future(answers())
        try:
            for ref in range(1, count + 1):
                await client.send({"type": "insert", "list": "Ltasks", "section": "Sdone", "after": None,
                                   "row": {"text": f"{name} {ref}"}, "ref": ref})
                await asyncio.sleep(0.005)
            await reading
        except Exception:  # the connection to the killed server drops
            reading.cancel()

    async def scenario():
        watcher = await open_tasks(survivor)
        on_doomed, on_survivor = await open_tasks(doomed), await open_tasks(survivor)
        acked_doomed, acked_survivor = set(), set()
        storms = asyncio.gather(storm(on_doomed, "A", 90, acked_doomed),
                                storm(on_survivor, "B", 90, acked_survivor))
        for _ in range(500):  # mid-storm: once a few of its inserts are acknowledged
            if len(acked_doomed) >= 5:
                break
            await asyncio.sleep(0.01)
        doomed.process.send_signal(signal.SIGKILL)
        doomed.process.wait()
        await storms
        await watcher.settle(0.6)  # Client asserts every diff follows the last: no gap
        assert not [m for m in watcher.inbox if m["type"] == "screen"]
        assert 0 < len(acked_doomed) < 90 and len(acked_survivor) == 90  # killed mid-storm
        shown = {text for section in watcher.rows() for text in section}
        assert acked_doomed | acked_survivor <= shown
        fresh = await open_tasks(survivor)
        assert fresh.screen["sections"] == watcher.screen["sections"]
        assert set(sum(export_texts(app_db, "Ltasks"), [])) == shown
    run(scenario())


def test_log_retention_flags_are_checked(app_db):
    for flag in (["--log-keep", "0"], ["--log-hours", "0"]):
        result = subprocess.run([TABLEWEB, "serve", "--port", "0", "--db", app_db, *flag],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode != 0
        assert "--log-keep (TABLEWEB_LOG_KEEP) and --log-hours (TABLEWEB_LOG_HOURS)" in result.stderr
