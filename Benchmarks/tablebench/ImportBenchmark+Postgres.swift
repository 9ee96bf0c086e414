import Foundation
import TableModel
import TableStore

/// `tablebench import --postgres URL`: the same import on PostgreSQL, beside a bare COPY
/// of the same rows (the same columns and values, in 8 MiB pieces as the import sends
/// them, one transaction) into a table with no index and no trigger, in the same run.
extension ImportBenchmark {
  func measurePostgres(url: String, file: AppFile, text: String, parse: Duration) throws {
    let store = try Store(path: url)
    let connection = try PostgresConnection(url)
    print(
      "\nPostgreSQL \(connection.serverVersion / 10_000).\(connection.serverVersion % 100)"
        + " (\(store.redactedPath)), the same rows, best of \(rounds):")
    if let settings = try? connection.fetchOne(
      "SELECT current_setting('fsync'), current_setting('synchronous_commit')", [],
      { "fsync = \($0.string(0)), synchronous_commit = \($0.string(1))" })
    {
      print("  (\(settings))")
    }
    let rows = file.root.sections[0].rows
    try connection.executeScript(
      """
      DROP TABLE IF EXISTS bare_row;
      CREATE TABLE bare_row (id BIGINT, key TEXT NOT NULL, list_id BIGINT NOT NULL,
        block_id BIGINT NOT NULL, pos BIGINT NOT NULL, text TEXT NOT NULL, detail TEXT,
        style TEXT NOT NULL, image TEXT, accessory TEXT, switch BOOLEAN, checked BOOLEAN NOT NULL,
        visible BOOLEAN NOT NULL, lines BIGINT NOT NULL, flagged BOOLEAN NOT NULL,
        slot_values TEXT, actions TEXT, search TEXT NOT NULL);
      """)
    let bare = try best { try bareCopy(rows, into: "bare_row", connection: connection) }
    print("  bare COPY of the same rows (baseline): \(seconds(bare))")
    // What the load used to keep while it wrote: the primary key, and row_search for the
    // rows given no search text (none here: they are all ASCII). It now drops the key
    // and adds it back at the end, and makes the trigger only when a row needs it.
    try connection.executeScript(
      """
      DROP TABLE IF EXISTS bare_row_kept;
      CREATE TABLE bare_row_kept (LIKE bare_row);
      ALTER TABLE bare_row_kept ADD PRIMARY KEY (id);
      CREATE TRIGGER row_search BEFORE INSERT ON bare_row_kept FOR EACH ROW
        WHEN (NEW.search = '') EXECUTE FUNCTION tableweb_row_search();
      """)
    let kept = try best { try bareCopy(rows, into: "bare_row_kept", connection: connection) }
    print(
      "    the same with a primary key (the load drops it and adds it back at its end): "
        + seconds(kept) + String(format: " (%.2f× the bare COPY)", ratio(kept, bare)))
    var phases: [Duration: [ImportPhase]] = [:]
    let write = try best {
      let time = try ContinuousClock().measure { try store.importFile(file) }
      phases[time] = store.importPhases
    }
    printImport(writing: write, parse: parse, bare: bare, baseline: "COPY", phases: phases)
    try printReimport(file, into: store)
    // Into an empty database, as the import above (whose first round found one).
    let overlapped = try bestTimed {
      _ = try connection.execute("TRUNCATE list CASCADE")
      return try ContinuousClock().measure { try store.importJSON(text) }
    }
    print(
      "  import from the text, parse and writing overlapped (Store.importJSON): "
        + "\(seconds(overlapped)) (\(times(overlapped, bare)) the bare COPY)")
    _ = try connection.execute("DROP TABLE bare_row, bare_row_kept")
  }

  /// The rows through one COPY into `table`, emptied first, sent a MiB at a time as they
  /// are made (the server writes one piece while the next is made), one transaction: as
  /// the import sends its rows.
  private func bareCopy(_ rows: [AppRow], into table: String, connection: PostgresConnection)
    throws
  {
    _ = try connection.execute("TRUNCATE \(table)")
    try connection.inTransaction { () throws(PostgresError) in
      let sql = "COPY \(table) (\(Store.loadRowColumnList)) FROM STDIN"
      try connection.beginCopy(sql)
      var data: [UInt8] = []
      data.reserveCapacity(2 << 20)
      for (index, row) in rows.enumerated() {
        for (column, value) in Self.values(row, index: index).enumerated() {
          if column > 0 { data.append(UInt8(ascii: "\t")) }
          PostgresConnection.appendCopyText(value.databaseValue, to: &data)
        }
        data.append(UInt8(ascii: "\n"))
        if data.count >= 1 << 20 || index == rows.count - 1 {
          try connection.sendCopyData(data, sql)
          data.removeAll(keepingCapacity: true)
        }
      }
      try connection.endCopy(sql)
    }
  }
}
