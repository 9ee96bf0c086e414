import Foundation
import StoreTestSupport
import Testing

@testable import TableStore

/// What only the PostgreSQL store does: reconnecting after its connection was lost; undo
/// steps read by their session.
@Suite struct PostgresStoreTests {
  /// The backend of a store's connection is terminated (as a server restart would): the
  /// next command finds it broken at its first statement, before anything was applied,
  /// so it reconnects and runs whole, once.
  @Test func aStoreReconnectsAfterItsConnectionIsLost() throws {
    let temporary = try TemporaryStore(kind: .postgres, json: CommandTests.file)
    let store = temporary.store
    let pid = try #require(store.database as? PostgresStoreConnection).connection.backendPID
    let admin = try PostgresConnection(temporary.path)
    try admin.execute("SELECT pg_terminate_backend($1)", Int(pid))
    for _ in 0..<200 {
      guard
        try admin.fetchInt("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", Int(pid)) == 1
      else { break }
      Thread.sleep(forTimeInterval: 0.01)
    }
    let version = try admin.fetchInt("SELECT version FROM list WHERE key = 'tones'")
    _ = try store.select("t2", in: "tones")
    #expect(try store.snapshot(of: "home").sections[0].rows[0].detail == "Radar")
    #expect(try store.version(of: "tones") == (version ?? 0) + 1)
  }

  /// The statement that adds a transaction's undo steps trims each stack to its newest 50
  /// by reading the session's own steps, however the table's statistics stand. Here they
  /// were taken while 3 sessions had steps, as on a new database; 300 sessions have 57 each
  /// since. Keyed by the id alone (before migration 17), PostgreSQL looked for a session's
  /// 50th newest step down the id's index, through every session's steps: here 14,670 rows
  /// passed over a trim, 746,000 in all.
  @Test func aTrimReadsOnlyTheSessionsOwnSteps() throws {
    let temporary = try TemporaryStore(kind: .postgres, json: CommandTests.file)
    let store = temporary.store
    func addSteps(_ count: Int, sessions: Int, prefix: String) -> String {
      """
      INSERT INTO undo_step (session, list, version, command, author, undone, edits, prior)
        SELECT '\(prefix)' || (i % \(sessions)), 'L', i, 'update', NULL, false, '[]', '[]'
        FROM generate_series(1, \(count)) i;
      """
    }
    try store.database.runScript(
      "ALTER TABLE undo_step SET (autovacuum_enabled = false);"
        + addSteps(300, sessions: 3, prefix: "early") + "ANALYZE undo_step;"
        + addSteps(300 * 57, sessions: 300, prefix: "s"))
    let steps = (0..<50).flatMap { index -> [any DatabaseValueConvertible] in
      let nothing: String? = nil
      return [
        "s\(index)", "L", 20_000 + index, "update", nothing, "[]", "[]", nothing, true, index,
      ]
    }
    let plan = try store.fetchAll(
      "EXPLAIN (ANALYZE, FORMAT JSON) " + Store.undoStepsInsert(count: 50),
      steps + [Store.undoDepth - 1]
    ) { $0.string(0) }.joined()
    let passedOver = try #require(
      try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [Any]
    ).reduce(0) { $0 + Self.rowsRemovedByFilter(in: $1) }
    #expect(passedOver < 1_000, "rows passed over: \(passedOver)")
    #expect(
      try store.fetchInt("SELECT count(*) FROM undo_step WHERE session = 's7'") == Store.undoDepth)
  }

  /// A database keyed the old way (the id alone, and `undo_step_session`) is re-keyed when
  /// a newer tableweb opens it, its steps kept.
  @Test func anOlderUndoTableIsReKeyedWhenOpened() throws {
    let temporary = try TemporaryStore(kind: .postgres, json: CommandTests.file)
    let rekeyed = try #require(
      Store.migrations.indices.last { Store.postgresMigrations[$0]?.contains("undo_step") == true })
    try temporary.store.database.runScript(
      """
      ALTER TABLE undo_step DROP CONSTRAINT undo_step_pkey;
      ALTER TABLE undo_step ADD PRIMARY KEY (id);
      CREATE INDEX undo_step_session ON undo_step(session, id);
      INSERT INTO undo_step (session, list, version, command, author, undone, edits, prior)
        SELECT 's' || (i % 3), 'L', i, 'update', NULL, false, '[]', '[]'
        FROM generate_series(1, 30) i;
      """)
    try temporary.store.database.inTransaction(writing: true) { () throws(StoreError) in
      try temporary.store.database.setSchemaVersion(rekeyed)
    }
    let store = try Store(path: temporary.path)
    #expect(try store.database.schemaVersion() == Store.migrations.count)
    let key = try store.fetchAll(
      """
      SELECT a.attname FROM pg_index i JOIN pg_attribute a
        ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
      WHERE i.indrelid = 'undo_step'::regclass AND i.indisprimary
      ORDER BY array_position(i.indkey::int2[], a.attnum)
      """, []
    ) { $0.string(0) }
    #expect(key == ["session", "id"])
    #expect(
      try store.fetchInt("SELECT count(*) FROM pg_indexes WHERE indexname = 'undo_step_session'")
        == 0)
    #expect(try store.fetchInt("SELECT count(*) FROM undo_step WHERE session = 's1'") == 10)
  }

  /// The sum of every "Rows Removed by Filter" in an `EXPLAIN (ANALYZE, FORMAT JSON)` plan.
  static func rowsRemovedByFilter(in node: Any) -> Int {
    switch node {
    case let object as [String: Any]:
      let own =
        (object["Rows Removed by Filter"] as? Int ?? 0) * (object["Actual Loops"] as? Int ?? 1)
      return object.values.reduce(own) { $0 + rowsRemovedByFilter(in: $1) }
    case let array as [Any]:
      return array.reduce(0) { $0 + rowsRemovedByFilter(in: $1) }
    default:
      return 0
    }
  }
}
