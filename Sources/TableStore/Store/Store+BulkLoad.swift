import TableModel

extension Store {
  /// The tables an import fills: their secondary indexes and triggers are dropped for the
  /// load and made again once at its end.
  static let bulkLoadTables = ["row", "block", "section"]

  /// Runs `body`, which fills `bulkLoadTables` with many rows, inside the write
  /// transaction under way, with those tables' secondary indexes and triggers dropped for
  /// its length and made again (from the definitions the database holds) once at its end,
  /// in the same transaction: a failure anywhere rolls all of it back, the dropped indexes
  /// and triggers with it. On SQLite that includes `row_key` (`row.key`'s uniqueness,
  /// migration 15), so a duplicate key fails the load when it is built again; the other
  /// unique constraints (ids, the other tables' keys) stay. On PostgreSQL `row`'s primary key, unique and foreign-key
  /// constraints (and `list.parent_row`'s reference to it) are dropped too and added again
  /// at the end, each checked over every row in one pass, so a duplicate or a dangling
  /// reference fails the load there. Other tables' primary keys stay.
  ///
  /// The triggers are not there while `body` runs: on SQLite `body` writes `row.search`
  /// itself (see `Importer`). On PostgreSQL `body` writes it for the rows that are all
  /// ASCII (`foldsASCIILikeSwift()`), and a load-time trigger (`ensureLoadTrigger()`, made
  /// before the first such row) runs `row_search`'s function for the others, those COPY
  /// gives an empty search text (one UPDATE at the end instead
  /// wrote every row twice: `tablebench import`, 300,000 rows, 5.2 s against 3.2 s). Search
  /// data kept elsewhere (an index the triggers keep) is built again in
  /// `rebuildAfterBulkLoad(_:)`, once.
  ///
  /// The settings it changes for the load are the connection's memory for sorting and
  /// caching pages only; durability (journal, `synchronous`) is untouched, so the
  /// committed result is as safe as any other commit.
  ///
  /// `whenKeyed` runs after `body`, once rows can be found by id again (PostgreSQL's
  /// primary key is dropped while `body` runs) and before the other indexes are built.
  func bulkLoad<T>(
    _ body: () throws(StoreError) -> T, whenKeyed: () throws(StoreError) -> Void = {}
  ) throws(StoreError) -> T {
    let dropped = try phase("indexes and triggers dropped") { () throws(StoreError) in
      try dropForBulkLoad()
    }
    let settings = try widenForBulkLoad()
    defer { try? restore(settings) }
    loadFoldsASCII = try foldsASCIILikeSwift()
    defer { loadFoldsASCII = false }
    defer { hasLoadTrigger = false }
    defer { abandonLoadedRows() }  // a COPY a failure left open (none after a success)
    let result = try phase("rows written", body)
    if hasLoadTrigger { try execute("DROP TRIGGER row_search_load ON row") }
    try rebuildAfterBulkLoad(dropped, whenKeyed: whenKeyed)
    return result
  }

  /// Whether PostgreSQL's `tableweb_search_key` folds every printable ASCII character,
  /// tab and newline as `SearchQuery/key(text:detail:)` does (lowercase ASCII letters,
  /// nothing else changed), so that a load can give ASCII rows their search text and
  /// spare them `row_search` (a PL/pgSQL call a row: `tablebench import`, 1,000,000
  /// rows, 1.7 s of a 1.5 s bare COPY). False on SQLite, which folds every row in Swift.
  func foldsASCIILikeSwift() throws(StoreError) -> Bool {
    guard dialect == .postgres else { return false }
    let probe =
      "\t\n" + String(String.UnicodeScalarView((32..<127).compactMap(Unicode.Scalar.init)))
    let folded = try fetchAll("SELECT tableweb_search_key(?, ?)", [probe, probe]) { $0.string(0) }
    return folded == [SearchQuery.key(text: probe, detail: probe)]
  }

  /// On PostgreSQL, makes the load-time trigger that runs `row_search` for the rows COPY
  /// gives no search text (those not all ASCII), before the first such row is sent: a
  /// file of ASCII rows never has it (its `WHEN` tested on every row cost 0.1–0.2 s a
  /// million rows).
  func ensureLoadTrigger() throws(StoreError) {
    guard dialect == .postgres, !hasLoadTrigger else { return }
    try execute(
      """
      CREATE TRIGGER row_search_load BEFORE INSERT ON row FOR EACH ROW
        WHEN (NEW.search = '') EXECUTE FUNCTION tableweb_row_search()
      """)
    hasLoadTrigger = true
  }

  /// An index or trigger dropped for a load, with the statement that makes it again.
  struct DroppedObject {
    /// index | trigger | unique | foreign key | primary key (PostgreSQL's constraints on
    /// `row`, and the foreign keys that reference it)
    var kind: String
    var name: String
    var table: String
    var create: String
  }

  /// Drops the secondary indexes and triggers of `bulkLoadTables` and returns how to
  /// make them again. Constraint indexes (primary keys, `UNIQUE` columns) are kept, but
  /// for PostgreSQL's constraints on `row` (see `bulkLoad(_:whenKeyed:)`).
  ///
  /// Partial indexes (`row_checked`, `row_show_when`, `row_dependent`: a `WHERE`) stay
  /// too: a loaded row that their condition leaves out costs them one test, where building
  /// each again read the whole table (`tablebench import`, PostgreSQL, 1,000,000 rows:
  /// 0.1–0.17 s each).
  func dropForBulkLoad() throws(StoreError) -> [DroppedObject] {
    let objects = try bulkLoadObjects().filter {
      !($0.kind == "index" && $0.create.uppercased().contains(" WHERE "))
    }
    for object in objects {
      switch (object.kind, dialect) {
      case ("trigger", .postgres):
        try execute("DROP TRIGGER \(quoted(object.name)) ON \(quoted(object.table))")
      case ("unique", _), ("foreign key", _), ("primary key", _):
        try execute(
          "ALTER TABLE \(quoted(object.table)) DROP CONSTRAINT \(quoted(object.name))")
      default:
        try execute("DROP \(object.kind.uppercased()) \(quoted(object.name))")
      }
    }
    return objects
  }

  /// The secondary indexes and triggers of `bulkLoadTables`, as the database holds them.
  func bulkLoadObjects() throws(StoreError) -> [DroppedObject] {
    let tables = Store.bulkLoadTables
    let objects: [DroppedObject]
    switch dialect {
    case .sqlite:
      // sqlite_master has no SQL for the indexes behind UNIQUE and PRIMARY KEY.
      objects = try fetchAll(
        """
        SELECT type, name, tbl_name, sql FROM sqlite_master
        WHERE type IN ('index', 'trigger') AND sql IS NOT NULL
          AND tbl_name IN (\(tables.map { "'\($0)'" }.joined(separator: ", ")))
        ORDER BY type, name
        """, []
      ) {
        DroppedObject(
          kind: $0.string(0), name: $0.string(1), table: $0.string(2), create: $0.string(3))
      }
    case .postgres:
      let names = tables.map { "'\($0)'" }.joined(separator: ", ")
      objects = try fetchAll(
        """
        SELECT 'index', i.indexname, i.tablename, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = current_schema() AND i.tablename IN (\(names))
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname
            AND c.connamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()))
        UNION ALL
        SELECT 'trigger', t.tgname, c.relname, pg_get_triggerdef(t.oid) FROM pg_trigger t
        JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relname IN (\(names))
          AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
        UNION ALL
        SELECT CASE c.contype WHEN 'u' THEN 'unique' WHEN 'p' THEN 'primary key'
            ELSE 'foreign key' END, c.conname, t.relname,
          'ALTER TABLE ' || quote_ident(t.relname) || ' ADD CONSTRAINT ' || quote_ident(c.conname)
            || ' ' || pg_get_constraintdef(c.oid)
        FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        WHERE t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
          AND ((c.contype IN ('u', 'f', 'p') AND t.relname = 'row')
            OR (c.contype = 'f' AND c.confrelid = (SELECT oid FROM pg_class WHERE relname = 'row'
              AND relnamespace = t.relnamespace)))
        ORDER BY 1, 2
        """, []
      ) {
        DroppedObject(
          kind: $0.string(0), name: $0.string(1), table: $0.string(2), create: $0.string(3))
      }
    }
    return objects
  }

  /// Makes again what `dropForBulkLoad()` dropped, after the rows are in: every index
  /// built once from the loaded rows, and the triggers back for every later write.
  func rebuildAfterBulkLoad(
    _ dropped: [DroppedObject], whenKeyed: () throws(StoreError) -> Void = {}
  ) throws(StoreError) {
    // PostgreSQL's primary key of `row` first: what comes next finds rows by id.
    for object in dropped where object.kind == "primary key" {
      try phase("primary key \(object.name)") { () throws(StoreError) in
        try execute(object.create)
      }
    }
    try whenKeyed()
    for object in dropped where object.kind == "index" {
      try phase("index \(object.name)") { () throws(StoreError) in try execute(object.create) }
    }
    // PostgreSQL's constraints on `row`: each checked over every row in one pass (an
    // index build, a join), where COPY checked each row as it came (a trigger call).
    for kind in ["unique", "foreign key"] {
      for object in dropped where object.kind == kind {
        try phase("\(kind) \(object.name)") { () throws(StoreError) in
          try execute(object.create)
        }
      }
    }
    try phase("triggers") { () throws(StoreError) in
      for object in dropped where object.kind == "trigger" { try execute(object.create) }
    }
    // The search index is not among them: `replaceContents` drops it before the old rows
    // go and builds it once after the load (`buildSearchIndex()`).
  }

  /// The connection's settings a load widens, to restore after it.
  struct LoadSettings {
    var cacheSize: Int?
  }

  /// Lets SQLite keep the load's pages in memory (256 MiB instead of 32 MiB), so that
  /// building the indexes sorts in memory; nothing on PostgreSQL.
  func widenForBulkLoad() throws(StoreError) -> LoadSettings {
    guard dialect == .sqlite else {
      // For this transaction only: building the indexes and checking the constraints
      // sorts in memory.
      try execute("SET LOCAL maintenance_work_mem = '256MB'")
      try execute("SET LOCAL work_mem = '256MB'")
      return LoadSettings()
    }
    let cacheSize = try fetchInt("PRAGMA cache_size")
    try execute("PRAGMA cache_size = -262144")
    return LoadSettings(cacheSize: cacheSize)
  }

  func restore(_ settings: LoadSettings) throws(StoreError) {
    guard dialect == .sqlite, let cacheSize = settings.cacheSize else { return }
    try execute("PRAGMA cache_size = \(cacheSize)")
  }

  /// The columns of `row` a bulk load writes, in the order `insertLoadedRow(_:)` takes
  /// their values.
  package static let loadRowColumnList = """
    id, key, list_id, block_id, pos, text, detail, style, image, accessory, switch, checked, \
    visible, lines, flagged, slot_values, actions, search
    """
  static let loadRowColumns = loadRowColumnList.split(separator: ",").count

  /// The statement a bulk load inserts a row with, its values in `loadRowColumnList`'s order.
  static let loadRowSQL = loadRowsSQL(1)

  /// Starts writing a section's rows (`insertLoadedRow(_:)`, then `flushLoadedRows()`).
  /// On PostgreSQL it opens the COPY they go through, after making the load trigger when
  /// some of them need `row_search` (`needingFold`): nothing else can be sent until
  /// `flushLoadedRows()` (or `abandonLoadedRows()`) ends it.
  func beginLoadedRows(needingFold: Bool) throws(StoreError) {
    guard let postgres = database as? PostgresStoreConnection else { return }
    if needingFold { try ensureLoadTrigger() }
    do {
      try postgres.connection.beginCopy(Store.loadRowCopySQL)
    } catch {
      throw StoreError(error)
    }
    isCopying = true
  }

  /// The rows a bulk load inserts with one statement on SQLite: 900 parameters, under
  /// the 999 that SQLite allowed before 3.32. A statement a row opens and closes a cursor
  /// on `row` and on each of its three partial indexes, and steps and resets the
  /// statement, for every row: `tablebench import`, 1,000,000 rows, wrote its rows in
  /// 1.48–1.59 s that way and in 1.31–1.41 s 50 at a time (five runs each, alternating);
  /// 32 to 512 at a time were alike, 8 at a time 1.42 s.
  package static let loadRowsAtOnce = 50

  /// `loadRowSQL` for `count` rows at once.
  package static func loadRowsSQL(_ count: Int) -> String {
    let row = "(" + Array(repeating: "?", count: loadRowColumns).joined(separator: ", ") + ")"
    return "INSERT INTO row (\(loadRowColumnList)) VALUES "
      + Array(repeating: row, count: count).joined(separator: ", ")
  }

  /// Inserts one row of a bulk load (`loadRowSQL`'s columns, in order). On SQLite rows
  /// wait until there are `loadRowsAtOnce` of them, to go in with one statement that is
  /// kept for the load (the last few of a section go in when `flushLoadedRows()` ends
  /// it); on PostgreSQL the row is added to the COPY `beginLoadedRows(needingFold:)`
  /// opened, sent a MiB at a time, so that the server writes one piece while this thread
  /// makes the next (or, without an open COPY, to one sent when 8 MiB are waiting or the
  /// section ends).
  func insertLoadedRow(_ values: any DatabaseValueConvertible...) throws(StoreError) {
    if let postgres = database as? PostgresStoreConnection {
      for (index, value) in values.enumerated() {
        if index > 0 { copyBuffer.append(UInt8(ascii: "\t")) }
        PostgresConnection.appendCopyText(value.databaseValue, to: &copyBuffer)
      }
      copyBuffer.append(UInt8(ascii: "\n"))
      if isCopying, copyBuffer.count >= 1 << 20 {
        defer { copyBuffer.removeAll(keepingCapacity: true) }
        do {
          try postgres.connection.sendCopyData(copyBuffer, Store.loadRowCopySQL)
        } catch {
          throw StoreError(error)
        }
      } else if copyBuffer.count >= 8 << 20 {
        try flushLoadedRows()
      }
      return
    }
    guard let sqlite = database as? Database else {
      return try execute(Store.loadRowSQL, arguments: values)
    }
    loadRowBatch.append(contentsOf: values)
    guard loadRowBatch.count == Store.loadRowsAtOnce * Store.loadRowColumns else { return }
    defer { loadRowBatch.removeAll(keepingCapacity: true) }
    do {
      if loadRowsStatement == nil {
        loadRowsStatement = try sqlite.cachedStatement(Store.loadRowsSQL(Store.loadRowsAtOnce))
      }
      try loadRowsStatement!.execute(loadRowBatch)
    } catch {
      // The statement's 50 rows of parameters would make the message 3,000 characters long.
      var error = error
      error.sql = Store.loadRowsDescription
      throw StoreError(error)
    }
  }

  /// What an error names for the statement that inserts `loadRowsAtOnce` rows.
  static let loadRowsDescription =
    "INSERT INTO row (\(loadRowColumnList)) VALUES (?, …), … (\(loadRowsAtOnce) rows)"

  /// Inserts the rows `insertLoadedRow(_:)` left waiting: on SQLite, one at a time; on
  /// PostgreSQL, sends those it gathered for the COPY and ends it. A row the table
  /// refuses throws here.
  func flushLoadedRows() throws(StoreError) {
    guard let postgres = database as? PostgresStoreConnection else {
      defer { loadRowBatch.removeAll(keepingCapacity: true) }
      for start in stride(from: 0, to: loadRowBatch.count, by: Store.loadRowColumns) {
        try execute(
          Store.loadRowSQL,
          arguments: Array(loadRowBatch[start..<start + Store.loadRowColumns]))
      }
      return
    }
    defer { copyBuffer.removeAll(keepingCapacity: true) }
    do {
      if isCopying {
        isCopying = false
        if !copyBuffer.isEmpty {
          try postgres.connection.sendCopyData(copyBuffer, Store.loadRowCopySQL)
        }
        try postgres.connection.endCopy(Store.loadRowCopySQL)
      } else if !copyBuffer.isEmpty {
        try postgres.connection.copyIn(Store.loadRowCopySQL, data: copyBuffer)
      }
    } catch {
      throw StoreError(error)
    }
  }

  /// Forgets the rows a failure left waiting, and ends a COPY it interrupted, so that the
  /// connection can roll back: the server refuses it, and the transaction with it.
  func abandonLoadedRows() {
    copyBuffer.removeAll(keepingCapacity: true)
    loadRowBatch.removeAll(keepingCapacity: true)
    guard isCopying, let postgres = database as? PostgresStoreConnection else { return }
    isCopying = false
    postgres.connection.abortCopy()
  }

  static let loadRowCopySQL = "COPY row (\(loadRowColumnList)) FROM STDIN"

  private func quoted(_ name: String) -> String {
    "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
      + "\""
  }
}
