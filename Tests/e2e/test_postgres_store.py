"""tableweb on PostgreSQL: `import`, `serve` and `export` with `--db postgres://…` on a
throwaway cluster (postgres_cluster.py), and clear one-line errors for a bad URL or an
unreachable server that never show the password."""
import asyncio
import json
import os
import subprocess

import pytest

from conftest import TABLEWEB
from postgres_cluster import PostgresCluster, binary_folder
from test_http_commands import post
from test_http_commands import test_a_posted_insert_reaches_a_viewer_as_a_diff as posted_insert_reaches_a_viewer
from test_protocol import Client

HERE = os.path.dirname(__file__)
APP = os.path.join(HERE, "test_protocol_app.json")


@pytest.fixture(scope="module")
def postgres():
    if binary_folder() is None:
        pytest.skip("PostgreSQL is not installed (make deps)")
    if not os.path.exists(TABLEWEB):
        pytest.skip(f"{TABLEWEB} is not built (make release)")
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


def tableweb(*args, env=None):
    return subprocess.run([TABLEWEB, *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


def export(db):
    result = tableweb("export", "--db", db)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_import_serve_export_round_trip_through_postgres(postgres, launch_server, tmp_path):
    url = postgres.new_database()
    imported = tableweb("import", APP, "--db", url)
    assert imported.returncode == 0, imported.stderr
    # The same file through SQLite exports the same data.
    sqlite = str(tmp_path / "same.sqlite")
    assert tableweb("import", APP, "--db", sqlite).returncode == 0
    assert export(url) == export(sqlite)

    server = launch_server(db=url)

    posted_insert_reaches_a_viewer(server)  # Butter, after Bread in Ltasks
    assert server.stop() == 0
    assert "postgres://tableweb@127.0.0.1" in "".join(server.output)

    # What the server committed is in the export, and the export imports again unchanged
    # (TABLEWEB_DB names the database as well as --db).
    data = export(url)
    assert "Butter" in json.dumps(data)
    exported = tmp_path / "export.json"
    exported.write_text(json.dumps(data))
    again = postgres.new_database()
    assert tableweb("import", str(exported), env={"TABLEWEB_DB": again}).returncode == 0
    assert export(again) == data


@pytest.mark.parametrize("url, problem", [
    ("postgres://tableweb:s3cret-pw@127.0.0.1:1/nothing", "127.0.0.1"),
    ("postgres://tableweb:s3cret-pw@127.0.0.1:notaport/nothing", "notaport"),
])
def test_a_bad_url_or_an_unreachable_server_is_a_one_line_error(postgres, url, problem):
    for command in (["export", "--db", url], ["import", APP, "--db", url],
                    ["access", "list", "--db", url]):
        result = tableweb(*command)
        assert result.returncode != 0
        message = result.stderr.strip()
        assert len(message.splitlines()) == 1, message
        assert problem in message and "PostgreSQL" in message, message
        assert "s3cret-pw" not in result.stderr + result.stdout


def test_serve_names_an_unreachable_database_without_its_password(postgres, tmp_path):
    result = subprocess.run(
        [TABLEWEB, "serve", "--port", "0", "--db", "postgres://tableweb:s3cret-pw@127.0.0.1:1/x"],
        capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "cannot open the database postgres://tableweb:***@127.0.0.1:1/x" in result.stderr
    assert "s3cret-pw" not in result.stderr + result.stdout


def test_an_edit_through_one_server_reaches_a_viewer_on_another(postgres, launch_server):
    """Two servers on one PostgreSQL database: the other's commits are announced by
    LISTEN/NOTIFY and read from the change log, in order and without gaps."""
    url = postgres.new_database()
    assert tableweb("import", APP, "--db", url).returncode == 0
    writer, other = launch_server(db=url), launch_server(db=url)

    async def scenario():
        viewer = await Client.open(other)
        await viewer.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        version = viewer.screen["version"]
        for index, text in enumerate(["Butter", "Jam"]):
            status, answer = await asyncio.to_thread(post, writer, {
                "type": "insert", "list": "Ltasks", "section": "Stodo", "row": {"text": text}})
            assert status == 200 and answer["version"] == version + index + 1
        for index in range(2):
            diff = await viewer.expect("diff")
            assert diff["from"] == version + index
        assert viewer.rows()[0][:2] == ["Jam", "Butter"]
        await viewer.close()
    asyncio.run(scenario())


def test_a_dropped_listener_catches_up_from_the_log(postgres, launch_server):
    """Servers on PostgreSQL hear each other's commits through LISTEN/NOTIFY (there is no
    poll: without the announcement nothing would arrive). Their listening connections are
    terminated mid-storm: each reconnects and catches up from the change log, and the viewer
    gets every diff once, in order."""
    url = postgres.new_database()
    assert tableweb("import", APP, "--db", url).returncode == 0
    writer, other = launch_server(db=url), launch_server(db=url)
    psql = [os.path.join(binary_folder(), "psql"), "-h", "127.0.0.1", "-p", str(postgres.port),
            "-U", "tableweb", "-d", url.rsplit("/", 1)[1], "-Atc"]

    def terminate_listeners():
        result = subprocess.run(psql + [
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name = 'tableweb change listener'"], capture_output=True, text=True,
            timeout=30)
        assert result.returncode == 0, result.stderr
        return int(result.stdout.strip())

    async def scenario():
        viewer = await Client.open(other)
        await viewer.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        version = viewer.screen["version"]
        texts = [f"Item {index}" for index in range(24)]
        for index, text in enumerate(texts):
            if index == 8:
                assert await asyncio.to_thread(terminate_listeners) == 2
            status, answer = await asyncio.to_thread(post, writer, {
                "type": "insert", "list": "Ltasks", "section": "Stodo", "row": {"text": text}})
            assert status == 200 and answer["version"] == version + index + 1
        for index in range(len(texts)):
            diff = await viewer.expect("diff")
            assert diff["from"] == version + index
        assert viewer.rows()[0][:len(texts)] == texts[::-1]
        await viewer.close()
    asyncio.run(scenario())


def test_a_commit_stuck_in_postgres_does_not_hold_the_service_thread(postgres, launch_server):
    """On PostgreSQL the session core runs on a thread of its own (CoreRelay): while a
    commit waits for a lock another transaction holds, the server still serves its page,
    answers pings and reads other connections; the commit goes through once the lock goes."""
    import time
    import urllib.request
    url = postgres.new_database()
    assert tableweb("import", APP, "--db", url).returncode == 0
    server = launch_server(db=url)
    psql = [os.path.join(binary_folder(), "psql"), "-h", "127.0.0.1", "-p", str(postgres.port),
            "-U", "tableweb", "-d", url.rsplit("/", 1)[1], "-Atc"]

    async def scenario():
        editor = await Client.open(server)
        await editor.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        locker = subprocess.Popen(psql + [
            "BEGIN; LOCK TABLE row IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(3); COMMIT;"],
            stdout=subprocess.DEVNULL)
        await asyncio.sleep(0.5)  # the lock is held
        try:
            started = time.monotonic()
            await editor.send({"type": "update", "list": "Ltasks", "row": "Rmilk", "text": "Oat milk",
                               "ref": 2})
            await asyncio.sleep(0.2)  # the commit now waits in PostgreSQL
            page = await asyncio.to_thread(
                lambda: urllib.request.urlopen(server.url, timeout=2).read())
            assert b"<title>tableweb</title>" in page
            pong = await editor.ws.ping()
            await asyncio.wait_for(pong, 1)
            answered = time.monotonic() - started
            assert answered < 1.5, f"the service thread was held {answered:.2f} s"
            ack = await editor.expect("ack", timeout=10)  # once the lock is released
            assert ack["ref"] == 2 and time.monotonic() - started > 2
        finally:
            locker.wait(timeout=30)
        await editor.close()
    asyncio.run(scenario())


def test_a_reader_that_falls_behind_gets_a_fresh_screen_through_the_core_thread(postgres, launch_server):
    """Backpressure when the core runs on its own thread (PostgreSQL): the full queue is
    found on the service thread, which drops what follows until the core's fresh screen
    replaces it (CoreRelay): the same outcome as on one thread."""
    from test_protocol import test_a_reader_that_falls_behind_gets_a_fresh_screen_and_slows_nobody as check
    url = postgres.new_database()
    assert tableweb("import", APP, "--db", url).returncode == 0
    check(launch_server(db=url))


def test_healthz_waits_for_a_hung_postgres_on_its_own_thread(postgres, launch_server):
    """A health check opens a connection: with the postmaster hung (SIGSTOP) it waits,
    but on a thread of its own (HealthProbe): the page is still served meanwhile, and the
    check answers once PostgreSQL does."""
    import signal
    import threading
    import time
    import urllib.request
    url = postgres.new_database()
    assert tableweb("import", APP, "--db", url).returncode == 0
    server = launch_server(db=url)
    with open(os.path.join(postgres.data, "postmaster.pid")) as f:
        postmaster = int(f.readline())
    answers = []
    os.kill(postmaster, signal.SIGSTOP)
    try:
        asking = threading.Thread(target=lambda: answers.append(
            urllib.request.urlopen(server.url + "healthz", timeout=20).status))
        asking.start()
        time.sleep(0.5)  # the check now waits for the postmaster
        started = time.monotonic()
        page = urllib.request.urlopen(server.url, timeout=3).read()
        assert b"<title>tableweb</title>" in page and time.monotonic() - started < 1.5
        assert answers == []
    finally:
        os.kill(postmaster, signal.SIGCONT)
    asking.join(timeout=20)
    assert answers == [200]


def test_commands_that_queue_up_commit_together_and_a_broken_group_runs_again(postgres, launch_server):
    """Group commit (SessionHost.runTogether): commands that queue up while a commit waits
    share one transaction. Here they queue behind a table lock; the server's connection is
    terminated while it waits, twice, so that a group breaks and its commands run again
    one at a time. Every command is answered once; what was acknowledged is exactly what
    the database holds (nothing lost, nothing applied twice, nothing applied that was
    refused); the viewer's screen equals `export`."""
    import time
    from test_operations import samples
    url = postgres.new_database()
    assert tableweb("import", APP, "--db", url).returncode == 0
    server = launch_server(db=url)
    psql = [os.path.join(binary_folder(), "psql"), "-h", "127.0.0.1", "-p", str(postgres.port),
            "-U", "tableweb", "-d", url.rsplit("/", 1)[1], "-Atc"]

    def terminate_waiting_commit():
        """Terminates the server's connection once it waits for the lock; True if it did."""
        for _ in range(100):
            result = subprocess.run(psql + [
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                " AND pid <> pg_backend_pid()"], capture_output=True, text=True, timeout=30)
            assert result.returncode == 0, result.stderr
            if int(result.stdout.strip()) > 0:
                return True
            time.sleep(0.02)
        return False

    async def scenario():
        viewer = await Client.open(server)
        await viewer.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        before = {text for section in viewer.rows() for text in section}
        editors = [await Client.open(server) for _ in range(4)]
        for editor in editors:  # a session writes only to the lists on its screen
            await editor.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 100)
            editor.inbox.clear()
        locker = subprocess.Popen(psql + [
            "BEGIN; LOCK TABLE row IN EXCLUSIVE MODE; SELECT pg_sleep(3); COMMIT;"],
            stdout=subprocess.DEVNULL)
        await asyncio.sleep(0.4)  # the lock is held: inserts wait, reads go on
        try:
            for index, editor in enumerate(editors):
                for ref in range(1, 21):
                    await editor.send({"type": "insert", "list": "Ltasks", "section": "Stodo",
                                       "row": {"text": f"E{index} {ref}"}, "ref": ref})
            assert await asyncio.to_thread(terminate_waiting_commit)
            await asyncio.sleep(0.3)  # the others queued up and now wait together
            assert await asyncio.to_thread(terminate_waiting_commit)
        finally:
            await asyncio.to_thread(locker.wait, 30)
        acked = set()
        for index, editor in enumerate(editors):
            answers = {}
            while len(answers) < 20:
                message = await editor.receive(15)
                if message["type"] in ("ack", "error") and message.get("ref"):
                    assert message["ref"] not in answers, message  # answered once
                    answers[message["ref"]] = message
            assert sorted(answers) == list(range(1, 21))
            acked |= {f"E{index} {ref}" for ref, m in answers.items() if m["type"] == "ack"}
        assert acked  # the server went on after the lock and the terminations
        await viewer.settle(0.6)
        shown = {text for section in viewer.rows() for text in section}
        assert shown == before | acked
        assert export(url) is not None
        from test_two_servers import export_texts
        assert export_texts(url, "Ltasks") == viewer.rows()
        for editor in editors:
            await editor.close()
        await viewer.close()
        return acked

    acked = asyncio.run(scenario())
    figures = samples(server)
    committed = figures[("tableweb_group_commits_total", (("result", "committed"),))]
    run_again = figures[("tableweb_group_commits_total", (("result", "run_again"),))]
    items = figures[("tableweb_group_commit_items_total", ())]
    print(f"\n{len(acked)} of 80 acknowledged; groups committed {committed:.0f}"
          f" ({items:.0f} callbacks), run again {run_again:.0f}")
    assert run_again >= 1
    assert committed >= 1 and items > committed
