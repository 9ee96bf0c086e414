"""A throwaway PostgreSQL cluster for end-to-end tests, as the Swift tests start one.

`initdb` in a temporary folder and `pg_ctl start` on a free loopback port (fsync off: the
data is thrown away; `PostgresCluster(durable=True)` keeps it on, as benchmarks need).
initdb refuses root: as root, both run as Debian's `postgres` user.
`PostgresCluster.new_database()` gives the URL of a fresh, empty database; `stop()` stops
the server and removes the folder; `stop_server(mode)`, `start()` and `restart(mode)` take
it down and up for fault tests. Tests skip when PostgreSQL is not installed.
"""
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid


def binary_folder():
    """Debian's newest /usr/lib/postgresql/N/bin holding initdb, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    return os.path.dirname(found[0]) if found else None


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresCluster:
    def __init__(self, durable=False):
        self.bin = binary_folder()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (`make deps` installs it)")
        self.as_root = os.getuid() == 0
        self.folder = tempfile.mkdtemp(prefix="tableweb-e2e-pg-")
        self.data = os.path.join(self.folder, "data")
        self.port = free_port()
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run("initdb", "-D", self.data, "-U", "tableweb", "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        self.options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        if not durable:
            self.options += " -c fsync=off -c full_page_writes=off"
        self.start()

    def start(self):
        """Starts the server and waits until it accepts connections."""
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "server.log"),
                  "-w", "-t", "60", "-o", self.options, "start")

    def stop_server(self, mode="fast"):
        """Stops the server (`fast`: a clean shutdown; `immediate`: killed, crash recovery
        at the next start) and keeps its data."""
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def restart(self, mode="fast"):
        """`pg_ctl restart -m MODE`: down and up again as fast as PostgreSQL can."""
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "server.log"),
                  "-m", mode, "-w", "-t", "60", "-o", self.options, "restart")

    def _run(self, program, *arguments):
        command = [os.path.join(self.bin, program), *arguments]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120,
                       stdin=subprocess.DEVNULL)

    def url(self, database="postgres"):
        return f"postgres://tableweb@127.0.0.1:{self.port}/{database}"

    def new_database(self):
        name = "e2e_" + uuid.uuid4().hex
        subprocess.run([os.path.join(self.bin, "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                        "-U", "tableweb", name], check=True, capture_output=True, timeout=30)
        return self.url(name)

    def stop(self):
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
