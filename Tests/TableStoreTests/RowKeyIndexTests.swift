import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// `row.key` is unique through an index of its own, `row_key` (migration 15), which a bulk
/// import drops and builds once at its end; a database made before it is rebuilt with
/// every row kept.
@Suite struct RowKeyIndexTests {
  /// The data file the old database below holds: a row with a switch, a row shown when it
  /// is on, and a child screen under the first row.
  static let file = """
    {"id": "L", "title": "Tasks", "sections": [{"id": "S", "header": "Today", "rows": [
      {"id": "a", "text": "Café", "switch": true, "children": {"id": "C", "title": "Child",
        "sections": [{"id": "CS", "rows": [{"id": "c", "text": "Inside"}]}]}},
      {"id": "b", "text": "Shown", "detail": "when a is on", "showWhen": {"row": "a", "on": true}}
    ]}]}
    """

  /// A SQLite file at schema version 14 (`row.key` declared `UNIQUE` in the table), holding
  /// `file` as an import of that time wrote it.
  static func olderDatabase(at path: String) throws {
    let database = try Database(path: path)
    try database.defineSearchKeyFunction()
    try database.execute("PRAGMA foreign_keys = ON")
    let version = Store.migrations.firstIndex(of: Store.rowKeyIndexMigration)!
    for migration in Store.migrations[..<version] { try database.executeScript(migration) }
    try database.executeScript(
      """
      INSERT INTO list (id, key, parent_row, title, style, selection, editable, indexed, header, version)
        VALUES (1, 'L', NULL, 'Tasks', 'plain', 'none', 0, 0, NULL, 1);
      INSERT INTO section (id, key, list_id, pos, header, count) VALUES (1, 'S', 1, 0, 'Today', 2);
      INSERT INTO block (id, section_id, pos, count, size) VALUES (1, 1, 0, 2, 2);
      INSERT INTO row (id, key, list_id, block_id, pos, text, detail, style, switch, checked, visible)
        VALUES (1, 'a', 1, 1, 0, 'Café', NULL, 'default', 1, 0, 1),
          (2, 'b', 1, 1, 4294967296, 'Shown', 'when a is on', 'default', NULL, 0, 1);
      UPDATE row SET show_when_row = 1, show_when_on = 1 WHERE id = 2;
      INSERT INTO list (id, key, parent_row, title, style, selection, editable, indexed, version)
        VALUES (2, 'C', 1, 'Child', 'plain', 'none', 0, 0, 1);
      INSERT INTO section (id, key, list_id, pos, count) VALUES (2, 'CS', 2, 0, 1);
      INSERT INTO block (id, section_id, pos, count, size) VALUES (2, 2, 0, 1, 1);
      INSERT INTO row (id, key, list_id, block_id, pos, text, style, checked, visible)
        VALUES (3, 'c', 2, 2, 0, 'Inside', 'default', 0, 1);
      PRAGMA user_version = \(version);
      """)
  }

  /// Opening the older file upgrades it: the same export as the file imported today, the
  /// rows' ids and search text kept, the child screen still under its row (with foreign
  /// keys on, dropping the old table would delete it, or be refused), `key` no longer
  /// `UNIQUE` in the table but in `row_key`, and the search index finding the rows.
  @Test func anOlderDatabaseKeepsItsRowsWhenUpgraded() throws {
    let today = try TemporaryStore(json: Self.file)
    defer { withExtendedLifetime(today) {} }
    let path = today.folder.appendingPathComponent("older.sqlite").path
    try Self.olderDatabase(at: path)
    let store = try Store(path: path)
    #expect(try store.database.schemaVersion() == Store.migrations.count)
    #expect(try store.exportJSON() == (try today.store.exportJSON()))
    #expect(
      try store.fetchAll("SELECT id, key FROM row ORDER BY id", []) {
        "\($0.int(0)) \($0.string(1))"
      } == ["1 a", "2 b", "3 c"])
    #expect(try BulkImportTests.storedRows(store) == (try BulkImportTests.storedRows(today.store)))
    let table = try store.fetchOne(
      "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'row'", []
    ) { $0.string(0) }
    #expect(table?.contains("UNIQUE") == false)
    #expect(
      try store.fetchInt("SELECT \"unique\" FROM pragma_index_list('row') WHERE name = 'row_key'")
        == 1)
    #expect(
      try store.search(SearchQuery("inside"), in: "C").sections.flatMap(\.rows).map(\.id)
        == ["c"])
    // Every index and trigger `row` had is there again.
    #expect(
      try BulkImportTests.schemaObjects(store) == (try BulkImportTests.schemaObjects(today.store)))
  }

  /// A second row with a key already taken is refused, by a row insert as by an import.
  @Test func aTakenKeyIsStillRefused() throws {
    let temporary = try TemporaryStore(json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    #expect {
      try temporary.store.execute(
        "INSERT INTO row (key, list_id, block_id, pos, text, style, checked, visible) VALUES ('b', 1, 1, 5, 'x', 'default', 0, 1)"
      )
    } throws: { error in
      "\(error)".contains("UNIQUE constraint failed: row.key")
    }
  }
}
