#!/usr/bin/env python3
"""What FTS5's segment merging costs the first writes after a bulk import, with and without
an 'optimize' after the index's 'rebuild' (Store.sqliteSearchIndex).

    python3 Benchmarks/fts_merges.py [--rows 1000000] [--commits 400]

For each way, in a fresh WAL database in a temporary folder: ROWS rows, the store's search
index (an external-content FTS5 trigram table without positions or row lengths) built with 'rebuild', then
'optimize' or not, then COMMITS single-row updates of the search text, each its own
transaction through the store's update trigger. Prints the seconds of the build and of the
'optimize', and the commits' median, p99 and longest time and how many took over 5 ms.
Python's own sqlite3 module: the same SQLite the server links on Debian (3.40).
"""
import argparse
import os
import sqlite3
import statistics
import tempfile
import time


def run(folder, optimize, rows, commits):
    path = os.path.join(folder, f"fts-{'optimize' if optimize else 'plain'}.sqlite")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("CREATE TABLE row (id INTEGER PRIMARY KEY, search TEXT NOT NULL DEFAULT '')")
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO row (id, search) VALUES (?, ?)",
        ((i, f"contact {i} name{i % 9973} street {i * 7 % 100003} city") for i in range(1, rows + 1)))
    db.execute(
        "CREATE VIRTUAL TABLE row_search USING fts5("
        "search, tokenize = 'trigram', content = 'row', content_rowid = 'id', detail = none, columnsize = 0)")
    started = time.perf_counter()
    db.execute("INSERT INTO row_search (row_search) VALUES ('rebuild')")
    rebuilt = time.perf_counter() - started
    started = time.perf_counter()
    if optimize:
        db.execute("INSERT INTO row_search (row_search) VALUES ('optimize')")
    optimized = time.perf_counter() - started
    db.execute("COMMIT")
    db.executescript("""
        CREATE TRIGGER row_search_index_update AFTER UPDATE OF search ON row
        WHEN OLD.search IS NOT NEW.search BEGIN
          INSERT INTO row_search (row_search, rowid, search)
            SELECT 'delete', OLD.id, OLD.search WHERE OLD.search <> '';
          INSERT INTO row_search (rowid, search) SELECT NEW.id, NEW.search WHERE NEW.search <> '';
        END;""")
    times = []
    for step in range(commits):
        started = time.perf_counter()
        db.execute("BEGIN")
        db.execute("UPDATE row SET search = ? WHERE id = ?",
                   (f"renamed {step} thing", 1 + step * 2477 % rows))
        db.execute("COMMIT")
        times.append((time.perf_counter() - started) * 1000)
    db.close()
    times.sort()
    print(f"{'with' if optimize else 'without'} 'optimize': rebuild {rebuilt:.2f} s, optimize "
          f"{optimized:.2f} s; {commits} commits after it: median {statistics.median(times):.2f} ms, "
          f"p99 {times[int(len(times) * 0.99)]:.2f} ms, longest {times[-1]:.2f} ms, "
          f"{sum(t > 5 for t in times)} over 5 ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--commits", type=int, default=400)
    arguments = parser.parse_args()
    print(f"SQLite {sqlite3.sqlite_version}, {arguments.rows:,} rows; load average "
          + " ".join(f"{load:.2f}" for load in os.getloadavg()))
    with tempfile.TemporaryDirectory() as folder:
        for optimize in (False, True):
            run(folder, optimize, arguments.rows, arguments.commits)


if __name__ == "__main__":
    main()
