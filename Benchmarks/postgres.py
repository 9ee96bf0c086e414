#!/usr/bin/env python3
"""A throwaway PostgreSQL for benchmarks, started as the end-to-end tests start theirs.

    python3 Benchmarks/postgres.py [--no-fsync] [-- COMMAND ...]

Starts a cluster in a temporary folder on a free loopback port (as root, initdb and the
server run as Debian's `postgres` user), makes an empty database and, with a COMMAND, runs
it with every `{url}` in its arguments replaced by the database's URL (also in
TABLEWEB_POSTGRES), then stops the cluster and removes the folder. Without a COMMAND it
prints the URL and keeps the cluster until Ctrl-C.

fsync and synchronous_commit stay on (the server's defaults), as a real deployment keeps
them; --no-fsync turns fsync off for a run labelled as such beside the honest one.
"""
import argparse
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "e2e"))
from postgres_cluster import PostgresCluster  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-fsync", action="store_true",
                        help="fsync and full_page_writes off (label the figures so)")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="after --: a command to run; {url} becomes the database's URL")
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    cluster = PostgresCluster(durable=not options.no_fsync)
    try:
        url = cluster.new_database()
        if not command:
            print(url, flush=True)
            print("(Ctrl-C stops the cluster and removes its folder)", file=sys.stderr)
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
            signal.sigwait({signal.SIGINT, signal.SIGTERM})
            return 0
        arguments = [part.replace("{url}", url) for part in command]
        return subprocess.run(arguments, env={**os.environ, "TABLEWEB_POSTGRES": url}).returncode
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
