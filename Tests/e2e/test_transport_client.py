"""`tableweb client` from the outside: it never hangs and says why it cannot connect."""
import json
import re
import subprocess
import time

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


# Against the real server and its demo app.

def test_drills_down_three_levels_and_back(tableweb_server):
    script = 'tap Settings\ntap General\ntap "Date & Time"\nback\nback\nback\n'
    result = client(tableweb_server.ws_url, "--strict", stdin=script)
    assert result.returncode == 0, result.stderr
    titles = [line.split("  (")[0] for line in result.stdout.splitlines()
              if "  (" in line and not line.startswith(" ")]
    assert titles == ["tableweb", "Settings", "General", "Date & Time", "General", "Settings",
                      "tableweb"]


def test_json_lines(tableweb_server):
    result = client(tableweb_server.ws_url, "--json", stdin="tap Settings\n")
    assert result.returncode == 0, result.stderr
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    assert [m["type"] for m in messages] == ["welcome", "screen", "screen", "ack"]
    assert messages[2]["transition"] == "push"


def test_strict_exits_on_the_first_error(tableweb_server):
    result = client(tableweb_server.ws_url, "--strict", stdin="back\ntap Settings\n")
    assert result.returncode == 1
    assert "error not_allowed" in result.stdout
    assert "Settings  (" not in result.stdout
    lenient = client(tableweb_server.ws_url, stdin="back\ntap Settings\n")
    assert lenient.returncode == 0


def test_resumes_a_session(tableweb_server):
    first = client(tableweb_server.ws_url, stdin="tap Settings\n")
    token = re.search(r"^session: (\S+) \(new\)", first.stdout, re.M).group(1)
    second = client(tableweb_server.ws_url, "--session", token, stdin="")
    assert f"session: {token} (resumed)" in second.stdout
    assert "\nSettings  (back: tableweb" in second.stdout


def test_sees_another_clients_change(tableweb_server):
    watcher = subprocess.Popen([TABLEWEB, "client", tableweb_server.ws_url, "--json"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    watcher.stdin.write("tap Settings\nwait 3000\n")
    watcher.stdin.flush()
    time.sleep(1)
    editor = client(tableweb_server.ws_url, "--strict", stdin='tap Settings\ntoggle "Airplane Mode" on\n')
    assert editor.returncode == 0, editor.stderr
    assert "settings-airplane | default | Airplane Mode | - | none | switch on" in editor.stdout
    out, _ = watcher.communicate(timeout=TIMEOUT)
    diffs = [m for m in map(json.loads, out.splitlines()) if m["type"] == "diff"]
    assert len(diffs) == 1 and diffs[0]["list"] == "settings"


def test_updates_a_rows_flag_detail_and_custom_cell_values(tableweb_server):
    script = ('tap Mail\n'
              'update "Alan Turing" --flagged on --value "subject=Dinner on Friday?"\n'
              'update mail-3 --detail "Read later"\n'
              'update mail-3 --no-detail --flagged off\n')
    result = client(tableweb_server.ws_url, "--strict", stdin=script)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("mail-2 |")]
    # The named slot changed; the others (sender, time, preview) were kept.
    assert rows[-1].startswith("mail-2 | default | Alan Turing | - | none | flagged | preview=Shall we"), rows
    assert "sender=Alan Turing; subject=Dinner on Friday?; time=Tuesday" in rows[-1]
    turing = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("mail-3 |")]
    assert any(" | Read later | " in line for line in turing), turing
    assert " | - | " in turing[-1] and "flagged" not in turing[-1]
    # Restore the demo for the tests that follow.
    client(tableweb_server.ws_url, stdin='tap Mail\nupdate mail-2 --flagged off --value "subject=Lunch on Friday?"\n')


def test_update_without_a_change_or_with_an_unknown_option_is_refused(tableweb_server):
    result = client(tableweb_server.ws_url, "--strict", stdin="tap Mail\nupdate mail-2 --colour red\n")
    assert result.returncode == 2
    assert "unknown option --colour" in result.stderr
    settings = client(tableweb_server.ws_url, "--strict", stdin='tap Settings\nupdate "Wi-Fi" --value a=b\n')
    assert settings.returncode == 2
    assert "line 2: Settings has no custom cell" in settings.stderr
