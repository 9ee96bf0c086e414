"""`tableweb serve` refuses what it cannot do with a message naming the problem."""

import subprocess

from conftest import TABLEWEB


def run_serve(*flags, tmp_path):
    return subprocess.run(
        [TABLEWEB, "serve", "--port", "0", "--db", str(tmp_path / "t.sqlite"), "--demo", *flags],
        capture_output=True, text=True, timeout=10)


def test_a_host_that_is_not_on_this_machine_is_refused_at_once(tmp_path):
    # TEST-NET-1 (RFC 5737) is never assigned to a machine; nothing is sent to it.
    result = run_serve("--host", "192.0.2.1", tmp_path=tmp_path)
    assert result.returncode != 0
    assert "--host 192.0.2.1 is not an address of this machine" in result.stderr


def test_a_host_name_that_does_not_resolve_is_refused(tmp_path):
    result = run_serve("--host", "no-such-host.invalid", tmp_path=tmp_path)
    assert result.returncode != 0
    assert "--host no-such-host.invalid" in result.stderr


def test_a_port_out_of_range_is_refused(tmp_path):
    result = run_serve("--port", "70000", tmp_path=tmp_path)
    assert result.returncode != 0
    assert "--port" in result.stderr


def test_a_file_that_is_not_a_database_is_named_without_usage_noise(tmp_path):
    (tmp_path / "t.sqlite").write_text("not a database")
    result = run_serve(tmp_path=tmp_path)
    assert result.returncode == 1
    assert "cannot open the database" in result.stderr
    assert "file is not a database" in result.stderr
    assert "Usage" not in result.stderr


def test_a_binary_copied_anywhere_serves_the_built_in_page(tmp_path):
    import os
    import shutil
    import signal
    import urllib.request
    from conftest import ROOT

    copy = tmp_path / "bin" / "tableweb"
    copy.parent.mkdir()
    shutil.copy(TABLEWEB, copy)
    process = subprocess.Popen([str(copy), "serve", "--port", "0", "--db", str(tmp_path / "t.sqlite"), "--demo"],
                               stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        line = process.stdout.readline()
        url = line.split("open ")[1].split()[0]
        with urllib.request.urlopen(url) as response:
            page = response.read()
        with urllib.request.urlopen(url + "table.js") as response:
            script = response.read()
        # The page as built: its boot script inline, its code joined and named by hash.
        with open(os.path.join(ROOT, "Public", "boot.js"), "rb") as f:
            assert b"<script>" + f.read() + b"</script>" in page
        assert b'<script type="module" src="page-' in page
        with open(os.path.join(ROOT, "Public", "table.js"), "rb") as f:
            assert script == f.read()
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    assert "tableweb: stopped" in process.stdout.read()
