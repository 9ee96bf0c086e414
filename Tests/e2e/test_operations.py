"""What an operator relies on: /healthz, /metrics, logs, the environment, systemd's
readiness notice, clear startup errors, and backups of the database while serving."""

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from conftest import TABLEWEB
from test_protocol import Client, import_fixture


def get(server, path):
    try:
        with urllib.request.urlopen(server.url.rstrip("/") + path, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def samples(server):
    status, text = get(server, "/metrics")
    assert status == 200
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_healthz_turns_503_when_the_database_cannot_be_read(launch_server):
    server = launch_server()
    assert get(server, "/healthz") == (200, "ok\n")
    os.rename(server.db, server.db + ".moved")  # as when its disk goes away
    status, body = get(server, "/healthz")
    assert status == 503
    assert "database" in body
    os.rename(server.db + ".moved", server.db)
    assert get(server, "/healthz") == (200, "ok\n")


def test_metrics_parse_and_move_as_a_client_acts(launch_server):
    server = launch_server()
    before = samples(server)
    assert before[("tableweb_connections", ())] == 0
    assert ("tableweb_queue_resyncs_total", ()) in before
    assert ("tableweb_fanout_seconds_count", ()) in before

    async def act():
        client = await Client.open(server)
        assert (await client.command({"type": "reload"}, ref=1))["type"] == "ack"
        assert (await client.command({"type": "no-such-command"}, ref=2))["type"] == "error"
        during = samples(server)
        await client.close()
        return during

    during = asyncio.run(act())
    assert during[("tableweb_connections", ())] == 1
    assert during[("tableweb_sessions", ())] == 1
    assert during[("tableweb_commands_total", (("result", "ack"), ("type", "hello")))] == 1
    assert during[("tableweb_commands_total", (("result", "ack"), ("type", "reload")))] == 1
    refused = [value for (name, labels), value in during.items()
               if name == "tableweb_commands_total" and ("result", "ack") not in labels]
    assert refused == [1]


def test_a_change_is_timed_in_the_fanout_histogram(launch_server, tmp_path):
    db = str(tmp_path / "app.sqlite")
    import_fixture(TABLEWEB, db)
    server = launch_server(db=db)

    async def act():
        viewer = await Client.open(server)
        writer = await Client.open(server)
        for client in (viewer, writer):
            await client.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, ref=1)
        reply = await writer.command({"type": "update", "list": "Ltasks", "row": "Rtea", "text": "x"}, ref=2)
        assert reply["type"] == "ack"
        await viewer.expect("diff")
        await viewer.close()
        await writer.close()
        return reply

    asyncio.run(act())
    after = samples(server)
    assert after[("tableweb_fanout_seconds_count", ())] == 1
    assert 0 < after[("tableweb_fanout_seconds_sum", ())] < 1
    # Every message is timed: two hellos, two taps, the update.
    assert after[("tableweb_command_seconds_count", ())] == 5
    assert 0 < after[("tableweb_command_seconds_sum", ())] < 1
    assert after[("tableweb_commands_total", (("result", "ack"), ("type", "update")))] == 1


def test_json_logs_have_a_line_per_connection_without_row_text(launch_server):
    server = launch_server("--log-format", "json")

    async def act():
        client = await Client.open(server)
        await client.command({"type": "reload"}, ref=1)
        await client.close()
        await asyncio.sleep(0.3)

    asyncio.run(act())
    lines = [json.loads(line) for line in server.output if line.startswith("{")]
    opened = [line for line in lines if line["message"] == "connection opened"]
    closed = [line for line in lines if line["message"] == "connection closed"]
    assert len(opened) == 1 and len(closed) == 1
    assert opened[0]["address"] == "127.0.0.1"
    assert len(closed[0]["session"]) == 8
    assert float(closed[0]["duration_s"]) >= 0
    assert any(line["message"] == "listening" for line in lines)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_tableweb(*args, env=None, cwd=None, timeout=15):
    return subprocess.run([TABLEWEB, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, cwd=cwd)


def test_the_environment_sets_the_port_and_a_flag_wins(tmp_path):
    port = free_port()
    process = subprocess.Popen([TABLEWEB, "serve", "--db", str(tmp_path / "t.sqlite")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "TABLEWEB_PORT": str(port), "TABLEWEB_DEMO": "1"})
    try:
        assert f"http://127.0.0.1:{port}/" in process.stdout.readline()
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    result = run_tableweb("serve", "--port", "70000", env={"TABLEWEB_PORT": "8080"})
    assert result.returncode != 0 and "70000" in result.stderr
    result = run_tableweb("serve", env={"TABLEWEB_PORT": "eighty"})
    assert result.returncode != 0 and "TABLEWEB_PORT=eighty" in result.stderr


def test_help_names_the_environment_variables():
    result = run_tableweb("serve", "--help")
    for name in ("TABLEWEB_PORT", "TABLEWEB_DB", "TABLEWEB_HOST", "TABLEWEB_LOG_FORMAT"):
        assert name in result.stdout


def test_the_message_size_limit_has_one_name_and_the_old_one_still_works():
    """--max-message-size (TABLEWEB_MAX_MESSAGE_SIZE) names the limit; --max-frame and
    TABLEWEB_MAX_FRAME, its names before, still set it but are not shown; the new ones win."""
    shown = run_tableweb("serve", "--help").stdout
    assert "--max-message-size" in shown and "TABLEWEB_MAX_MESSAGE_SIZE" in shown
    assert "--max-frame" not in shown and "TABLEWEB_MAX_FRAME" not in shown
    refusal = "--max-message-size (TABLEWEB_MAX_MESSAGE_SIZE) must be at least 256"
    for args, env in ((["--max-message-size", "100"], {"TABLEWEB_MAX_MESSAGE_SIZE": "65536"}),
                      (["--max-frame", "100"], {}),
                      ([], {"TABLEWEB_MAX_MESSAGE_SIZE": "100", "TABLEWEB_MAX_FRAME": "65536"}),
                      ([], {"TABLEWEB_MAX_FRAME": "100"})):
        result = run_tableweb("serve", *args, env=env)
        assert result.returncode != 0 and refusal in result.stderr, (args, env, result.stderr)


def test_version():
    result = run_tableweb("--version")
    assert result.returncode == 0
    assert result.stdout.strip()[0].isdigit()


def test_a_mistyped_database_is_an_error_not_a_new_demo(tmp_path):
    result = run_tableweb("serve", "--port", "0", "--db", str(tmp_path / "tabelweb.sqlite"))
    assert result.returncode == 1
    assert f"the database {tmp_path / 'tabelweb.sqlite'} does not exist" in result.stderr
    assert not (tmp_path / "tabelweb.sqlite").exists()


def test_import_errors_say_why_and_where(tmp_path):
    result = run_tableweb("import", "nosuch.json", "--db", str(tmp_path / "t.sqlite"), cwd=tmp_path)
    assert result.returncode == 1
    assert "cannot read nosuch.json: No such file or directory" in result.stderr
    (tmp_path / "bad.json").write_text('{\n  "title": "x",\n  "sections": [ , ]\n}')
    result = run_tableweb("import", "bad.json", "--db", str(tmp_path / "t.sqlite"), cwd=tmp_path)
    assert result.returncode == 1
    assert "(line 3, column 17)" in result.stderr


def test_a_bad_row_late_in_a_long_file_changes_nothing(tmp_path):
    """`tableweb import` checks a flat file's rows while it writes those that passed: a
    problem in the last row names its JSON path, the data already there is untouched,
    and a database file the import would have made is not left behind."""
    rows = [{"id": f"r{index}", "text": f"Row {index}"} for index in range(30_000)]
    (tmp_path / "good.json").write_text(
        json.dumps({"id": "L", "title": "Big", "sections": [{"id": "S", "rows": rows[:20_000]}]}))
    rows[-1]["style"] = "fancy"
    (tmp_path / "bad.json").write_text(
        json.dumps({"id": "L", "title": "Big", "sections": [{"id": "S", "rows": rows}]}))
    result = run_tableweb("import", "bad.json", "--db", str(tmp_path / "new.sqlite"), cwd=tmp_path)
    assert result.returncode == 1
    assert "bad.json: sections[0].rows[29999].style: unknown style" in result.stderr
    assert "sections[0].rows[29999].style" in result.stderr
    assert not list(tmp_path.glob("new.sqlite*"))

    db = str(tmp_path / "t.sqlite")
    result = run_tableweb("import", "good.json", "--db", db, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Imported 20000 rows from good.json" in result.stdout
    before = run_tableweb("export", "--db", db).stdout
    result = run_tableweb("import", "bad.json", "--db", db, cwd=tmp_path)
    assert result.returncode == 1
    assert "sections[0].rows[29999].style" in result.stderr
    assert run_tableweb("export", "--db", db).stdout == before
    assert '"Row 19999"' in before


def test_a_port_in_use_is_one_clear_message(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_tableweb("serve", "--port", str(port), "--db", str(tmp_path / "t.sqlite"), "--demo")
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "ERROR on binding" not in result.stderr
    assert not any(line.startswith(("E:", "[")) for line in result.stderr.splitlines())


def test_systemd_is_told_when_the_server_is_ready(tmp_path):
    path = str(tmp_path / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(path)
        notify.settimeout(10)
        process = subprocess.Popen([TABLEWEB, "serve", "--port", "0", "--db", str(tmp_path / "t.sqlite"), "--demo"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env={**os.environ, "NOTIFY_SOCKET": path})
        try:
            assert notify.recv(256) == b"READY=1"
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=10) == 0


def test_the_database_can_be_backed_up_while_serving(launch_server, tmp_path):
    """docs/deploying.md: `sqlite3 DB ".backup FILE"` (the online backup API) or
    `VACUUM INTO`, while clients write."""
    db = str(tmp_path / "app.sqlite")
    import_fixture(TABLEWEB, db)
    server = launch_server(db=db)

    async def write_while(backup):
        client = await Client.open(server)
        await client.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, ref=1)
        task = asyncio.get_running_loop().run_in_executor(None, backup)
        for ref in range(2, 30):  # paced under the rate limit
            reply = await client.command(
                {"type": "update", "list": "Ltasks", "row": "Rtea", "text": f"Tea {ref}"}, ref=ref)
            assert reply["type"] == "ack", reply
            await asyncio.sleep(0.02)
        await task
        await client.close()

    def backup():
        subprocess.run(["sqlite3", server.db, f".backup '{tmp_path / 'backup.sqlite'}'"], check=True, timeout=30)
        with sqlite3.connect(server.db) as source:
            source.execute("VACUUM INTO ?", (str(tmp_path / "vacuumed.sqlite"),))

    asyncio.run(write_while(backup))
    for name in ("backup.sqlite", "vacuumed.sqlite"):
        with sqlite3.connect(tmp_path / name) as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        result = run_tableweb("export", "--db", str(tmp_path / name))
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["sections"]


def test_metrics_can_move_to_a_port_of_their_own(launch_server):
    metrics_port = free_port()
    server = launch_server("--metrics-port", str(metrics_port))
    assert get(server, "/metrics")[0] == 404  # not on the main port any more
    assert get(server, "/healthz") == (200, "ok\n")
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as response:
        names = {family.name for family in text_string_to_metric_families(response.read().decode())}
    assert {"tableweb_connections", "tableweb_sessions", "tableweb_fanout_seconds"} <= names
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/", timeout=5)
        raise AssertionError("the page was served on the metrics port")
    except urllib.error.HTTPError as error:
        assert error.code == 404
