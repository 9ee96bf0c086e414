import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// The bulk import (Store+BulkLoad.swift): what it writes equals what the row-by-row import
/// writes, every index and trigger is back after it, and a failure leaves nothing behind.
@Suite struct BulkImportTests {
  /// A random data file using every feature an import writes: sections with headers and
  /// footers, each cell style, details, images, accessories, child screens, switches and
  /// rows shown when they are on or off, single and multiple selection, an indexed list
  /// with a language, row actions, custom cells, flags, rows without ids, accents (the
  /// search text folds them) and a section long enough to be prepared on a second thread.
  static func randomFile(seed: UInt64, longRows: Int) -> String {
    var random = SplitMix64(seed: seed)
    var serial = 0
    func quoted(_ text: String) -> String { JSONValue.string(text).serialized }
    func word() -> String {
      [
        "Zoë", "café", "Ærø", "straße", "Row", "naïve", "İstanbul", "日本", "Ωmega", "plain",
        "tab\tback\\slash\nline",
      ][
        random.next(11)]
    }
    func screen(depth: Int) -> String {
      serial += 1
      let id = "L\(serial)"
      var fields = [#""id": \#(quoted(id))"#, #""title": \#(quoted(word()))"#]
      let selection = ["none", "single", "multiple"][random.next(3)]
      fields.append(#""selection": "\#(selection)""#)
      fields.append(#""style": "\#(["plain", "grouped", "insetGrouped"][random.next(3)])""#)
      if random.next(2) == 0 { fields.append(#""editable": true"#) }
      if random.next(2) == 0 { fields.append(#""searchable": true"#) }
      if random.next(3) == 0 {
        fields.append(#""language": "\#(["he", "de", "fr"][random.next(3)])""#)
      }
      let hasCell = random.next(4) == 0
      if hasCell {
        fields.append(
          #""cell": {"slots": [{"name": "who", "kind": "title"}, {"name": "when", "kind": "trailing"}]}"#
        )
      }
      fields.append(
        #""actions": [{"id": "flag", "title": "Flag", "edge": "leading", "color": "orange", "effect": "flag"}, {"id": "gone", "title": "Delete", "effect": "delete"}]"#
      )
      if depth > 0 && random.next(4) == 0 {
        // An indexed list: rows only, sorted by the store.
        fields.append(#""index": true"#)
        let rows = (0..<(5 + random.next(20))).map { index in
          #"{"id": "\#(id)-i\#(index)", "text": \#(quoted(word() + " \(random.next(1000))"))}"#
        }
        fields.append(#""sections": [{"rows": [\#(rows.joined(separator: ", "))]}]"#)
        return "{" + fields.joined(separator: ", ") + "}"
      }
      var sections: [String] = []
      for sectionIndex in 0..<(1 + random.next(3)) {
        var rows: [String] = []
        let switchID = "\(id)-s\(sectionIndex)-sw"
        rows.append(#"{"id": "\#(switchID)", "text": "Switch", "switch": \#(random.next(2) == 0)}"#)
        let count = depth == 0 && sectionIndex == 0 ? longRows : random.next(12)
        for index in 0..<count {
          var row: [String] = []
          if random.next(5) != 0 { row.append(#""id": "\#(id)-s\#(sectionIndex)-r\#(index)""#) }
          row.append(#""text": \#(quoted("\(word()) \(index)"))"#)
          if random.next(3) == 0 { row.append(#""detail": \#(quoted(word()))"#) }
          row.append(#""style": "\#(["default", "subtitle", "value1", "value2"][random.next(4)])""#)
          if random.next(6) == 0 { row.append(#""image": "https://example.com/\#(index).png""#) }
          if random.next(6) == 0 {
            row.append(
              #""accessory": "\#(["none", "disclosure", "detailDisclosure", "detail"][random.next(4)])""#
            )
          }
          if selection == "multiple" && random.next(4) == 0 { row.append(#""checked": true"#) }
          if selection == "single" && index == 1 && sectionIndex == 0 {
            row.append(#""checked": true"#)
          }
          if random.next(7) == 0 {
            row.append(#""showWhen": {"row": "\#(switchID)", "on": \#(random.next(2) == 0)}"#)
          }
          if random.next(8) == 0 { row.append(#""flagged": true"#) }
          if random.next(8) == 0 { row.append(#""actions": ["gone"]"#) }
          if random.next(5) == 0 { row.append(#""lines": \#(random.next(4))"#) }
          if hasCell && random.next(2) == 0 {
            row.append(#""values": {"who": \#(quoted(word())), "when": "9:41"}"#)
          }
          if depth < 2 && count < 100 && random.next(6) == 0 {
            row.append(#""children": \#(screen(depth: depth + 1))"#)
          }
          rows.append("{" + row.joined(separator: ", ") + "}")
        }
        var section = [#""rows": [\#(rows.joined(separator: ", "))]"#]
        if random.next(2) == 0 { section.append(#""id": "\#(id)-s\#(sectionIndex)""#) }
        if random.next(2) == 0 { section.append(#""header": \#(quoted(word()))"#) }
        if random.next(3) == 0 { section.append(#""footer": \#(quoted(word()))"#) }
        sections.append("{" + section.joined(separator: ", ") + "}")
      }
      fields.append(#""sections": [\#(sections.joined(separator: ", "))]"#)
      return "{" + fields.joined(separator: ", ") + "}"
    }
    return screen(depth: 0)
  }

  /// Each row's stored fields that export does not show: its folded search text, its
  /// order and visibility.
  static func storedRows(_ store: Store) throws -> [String] {
    try store.fetchAll(
      "SELECT key, search, pos, visible, show_when_row IS NOT NULL FROM row ORDER BY key", []
    ) { "\($0.string(0)) \($0.string(1)) \($0.int(2)) \($0.bool(3)) \($0.bool(4))" }
  }

  /// The names of the schema's indexes and triggers on the tables a load fills.
  /// What an import that fails must leave as it was: the export and the schema's objects
  /// (indexes, triggers, constraints).
  static func whatAFailureKeeps(_ store: Store) throws -> [String] {
    [try store.exportJSON()] + (try schemaObjects(store))
  }

  /// The store takes a new row afterwards, and its search index finds it.
  static func expectSearchFindsANewRow(_ store: Store) throws {
    _ = try store.insertRow(in: "tasks", section: "today", after: nil, NewRow(text: "Après"))
    #expect(
      try store.search(SearchQuery("apres"), in: "tasks").sections.flatMap(\.rows).map(\.text)
        == ["Après"])
  }

  static func schemaObjects(_ store: Store) throws -> [String] {
    try store.read { () throws(StoreError) in try store.bulkLoadObjects() }.map {
      "\($0.kind) \($0.name): \($0.create)"
    }
  }

  @Test(arguments: StoreKind.allCases, [UInt64(1), 2, 3])
  func aBulkImportEqualsTheRowByRowImport(kind: StoreKind, seed: UInt64) throws {
    // Seed 1: a long section prepared on a second thread. Seed 3: 75 rows, one statement
    // of `Store.loadRowsAtOnce` (50) and 25 rows one at a time on SQLite, with child
    // screens (a section of 100 rows or more gets none), written after them.
    let file = Self.randomFile(seed: seed, longRows: [1: 20_000, 2: 300, 3: 74][seed]!)
    let bulk = try TemporaryStore(kind: kind)
    let rows = try TemporaryStore(kind: kind)
    rows.store.importsInBulk = false
    let objects = try Self.schemaObjects(bulk.store)
    #expect(objects.count >= 4)
    for store in [bulk.store, rows.store] {
      try store.execute("INSERT INTO session (token, stack, updated) VALUES ('kept', '[]', 1)")
    }
    // Twice: once into an empty database, once over what the first left (PostgreSQL's
    // bulk import empties the lists' tables at once, the row-by-row one deletes the roots).
    for round in 0..<2 {
      try bulk.store.importJSON(file)
      try rows.store.importJSON(file)
      let exported = try bulk.store.exportJSON()
      #expect(exported == (try rows.store.exportJSON()), "round \(round)")
      #expect(try Self.storedRows(bulk.store) == (try Self.storedRows(rows.store)))
      #expect(try Self.schemaObjects(bulk.store) == objects)
      #expect(try Self.keptBesideTheLists(bulk.store) == (try Self.keptBesideTheLists(rows.store)))
    }
  }

  /// What an import keeps or adds to beside the lists' data: each list's version (one
  /// more when it existed before), the sessions, the change log's records and entries.
  static func keptBesideTheLists(_ store: Store) throws -> [String] {
    try store.fetchAll("SELECT key, version FROM list ORDER BY key", []) {
      "\($0.string(0)) \($0.int(1))"
    }
      + store.fetchAll(
        """
        SELECT (SELECT count(*) FROM session), (SELECT count(*) FROM change_log),
          (SELECT count(*) FROM list_log)
        """, []
      ) { "sessions \($0.int(0)), change_log \($0.int(1)), list_log \($0.int(2))" }
  }

  @Test(arguments: StoreKind.allCases)
  func afterABulkImportEditsSearchAndTheLogWork(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind)
    let store = temporary.store
    try store.importFile(
      AppFile(jsonText: Self.randomFile(seed: 9, longRows: 10_000)),
      by: ChangeAuthor(name: "ana", role: .editor))
    // One change_log record for the import, one list_log entry (every client reloads).
    #expect(
      try store.changeLog() == [
        Store.ChangeRecord(
          list: "", command: "import", author: ChangeAuthor(name: "ana", role: .editor))
      ])
    #expect(try store.fetchInt("SELECT count(*) FROM list_log") == 1)
    #expect(try store.fetchInt("SELECT count(*) FROM list_log WHERE kind = 'replaced'") == 1)
    // A row inserted after the import is found by search: the triggers are back.
    _ = try store.insertRow(
      in: "L1", section: "L1-s0", after: nil, NewRow(text: "Quëtzalcoatl", detail: "Feathered"))
    let found = try store.search(SearchQuery("quetzalcoatl feathered"), in: "L1")
    #expect(found.sections.flatMap(\.rows).map(\.text) == ["Quëtzalcoatl"])
    // An edit changes what search finds.
    _ = try store.updateRow("L1-s0-sw", in: "L1", text: "Xylophone", detail: nil)
    #expect(
      try store.search(SearchQuery("xylo"), in: "L1").sections.flatMap(\.rows).map(\.id) == [
        "L1-s0-sw"
      ])
    #expect(
      !(try store.search(SearchQuery("switch"), in: "L1").sections.flatMap(\.rows).map(\.id)
        .contains("L1-s0-sw")))
  }

  @Test(arguments: StoreKind.allCases)
  func aWriteErrorMidwayLeavesTheDatabaseAsBefore(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: CommandTests.file)
    let store = temporary.store
    let before = try Self.whatAFailureKeeps(store)
    let stored = try Self.storedRows(store)
    // A trigger that fails the import when it writes its second screen, after the root's
    // rows are in and while the indexes are dropped.
    switch kind {
    case .sqlite:
      try store.execute(
        """
        CREATE TRIGGER fail_import AFTER INSERT ON list WHEN NEW.key = 'L2'
        BEGIN SELECT RAISE(ABORT, 'the disk is full'); END
        """)
    case .postgres:
      try store.database.runScript(
        """
        CREATE FUNCTION fail_import() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'the disk is full'; END $$;
        CREATE TRIGGER fail_import AFTER INSERT ON list FOR EACH ROW
          WHEN (NEW.key = 'L2') EXECUTE FUNCTION fail_import();
        """)
    }
    let file = Self.randomFile(seed: 4, longRows: 9_000)
    #expect(file.contains(#""id": "L2""#))
    #expect {
      try store.importJSON(file)
    } throws: { error in
      "\(error)".contains("the disk is full")
    }
    #expect(try Self.whatAFailureKeeps(store) == before)
    #expect(try Self.storedRows(store) == stored)
    try Self.expectSearchFindsANewRow(store)
  }

  /// On SQLite a bulk import that is a transaction of its own runs with the reference
  /// checks off, empties the lists' tables one by one and checks every reference once at
  /// its end. A table that refers to them and is not among those it empties is caught
  /// there: the import fails with SQLite's foreign-key error, nothing written, and the
  /// checks are on again (a delete cascades) whether the import failed or not.
  @Test func aReferenceLeftDanglingByTheLoadFailsItAtTheEnd() throws {
    let temporary = try TemporaryStore(
      kind: .sqlite, json: Self.randomFile(seed: 5, longRows: 2_000))
    let store = temporary.store
    // The last row: the smaller file imported next gives its rows ids from 1 again.
    try store.execute("CREATE TABLE note (row_id INTEGER NOT NULL REFERENCES row(id))")
    try store.execute("INSERT INTO note (row_id) SELECT max(id) FROM row")
    let before = try Self.whatAFailureKeeps(store)
    let stored = try Self.storedRows(store)
    let file = CommandTests.file
    #expect {
      try store.importJSON(file)
    } throws: { error in
      guard case .sqlite(787, let message, _) = error as? StoreError else { return false }
      return message.contains("note row 1 refers to a missing row")
    }
    #expect(try store.fetchInt("PRAGMA foreign_keys") == 1)
    #expect(try Self.whatAFailureKeeps(store) == before)
    #expect(try Self.storedRows(store) == stored)
    try store.execute("DROP TABLE note")
    try store.importJSON(file)
    #expect(try store.fetchInt("PRAGMA foreign_keys") == 1)
    #expect(try store.fetchAll("PRAGMA foreign_key_check", []) { $0.string(0) }.isEmpty)
    // The checks are on again: deleting a list's root row set cascades to its sections.
    let sections = try store.fetchInt("SELECT count(*) FROM section") ?? 0
    try store.execute("DELETE FROM list WHERE parent_row IS NULL")
    #expect(sections > 0)
    #expect(try store.fetchInt("SELECT count(*) FROM section") == 0)
  }

  /// `row.key`'s uniqueness (PostgreSQL's constraint, SQLite's index `row_key`) is dropped
  /// for the load and made again at its end: two rows with one key (a screen the file's checks never saw) are
  /// refused then, with nothing written and the constraint back.
  @Test(arguments: StoreKind.allCases)
  func aDuplicateRowKeyIsRefusedAtTheEndWithNothingWritten(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: CommandTests.file)
    let store = temporary.store
    let before = try Self.whatAFailureKeeps(store)
    // The last row takes the first's id.
    let rows = (0..<10_000).map { AppRow(id: "b\($0 == 9_999 ? 0 : $0)", text: "Row \($0)") }
    let screen = AppScreen(
      id: "big", title: "Big", sections: [AppSection(id: "all", rows: rows)])
    #expect(throws: StoreError.self) {
      try store.replaceContents(with: screen, by: nil)
    }
    #expect(try Self.whatAFailureKeeps(store) == before)
    #expect(try store.fetchInt("SELECT count(*) FROM row WHERE key LIKE 'b%'") == 0)
  }

  /// On PostgreSQL a section's rows go through one COPY that the server writes while the
  /// rest is still being sent: a row it refuses halfway (a constraint the load keeps)
  /// fails the import with the server's message, nothing written, and the connection
  /// takes the next write.
  @Test func aRowRefusedDuringTheCopyChangesNothing() throws {
    let temporary = try TemporaryStore(kind: .postgres, json: CommandTests.file)
    let store = temporary.store
    let before = try Self.whatAFailureKeeps(store)
    try store.execute("ALTER TABLE row ADD CONSTRAINT no_row_15000 CHECK (text <> 'Row 15000')")
    let rows = (0..<30_000).map { AppRow(id: "b\($0)", text: "Row \($0)") }
    let file = try AppFile(
      validating: AppScreen(id: "big", title: "Big", sections: [AppSection(id: "all", rows: rows)]))
    #expect {
      try store.importFile(file)
    } throws: { error in
      "\(error)".contains("no_row_15000")
    }
    #expect(try Self.whatAFailureKeeps(store) == before)
    #expect(try store.fetchInt("SELECT count(*) FROM row WHERE key LIKE 'b%'") == 0)
    try Self.expectSearchFindsANewRow(store)
  }

  /// A flat file is written while it is checked (`StreamedRows`): a bad row near the end
  /// of a long file is found while the rows before it are going in, the write is rolled
  /// back, and the error names the row's JSON path as the file's checks always did.
  @Test(arguments: StoreKind.allCases)
  func aBadRowNearTheEndOfALongFileChangesNothing(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: CommandTests.file)
    let store = temporary.store
    let before = try Self.whatAFailureKeeps(store)
    var text = #"{"id": "big", "title": "Big", "sections": [{"id": "all", "rows": ["#
    text.reserveCapacity(900_000 * 40)
    for index in 0..<900_000 {
      if index > 0 { text += "," }
      text +=
        index == 899_999
        ? #"{"id": "b\#(index)", "text": "Row", "style": "value3"}"#
        : #"{"id": "b\#(index)", "text": "Row \#(index)"}"#
    }
    text += "]}]}"
    store.importPhases = []
    #expect {
      try store.importJSON(text)
    } throws: { error in
      guard case StoreError.invalidData(let path, let message) = error else { return false }
      return path == "sections[0].rows[899999].style" && message.contains("value3")
    }
    // The write was under way: the rows before the bad one were going in.
    #expect(store.importPhases.map(\.name).contains("rows written"))
    #expect(try Self.whatAFailureKeeps(store) == before)
    #expect(try store.fetchInt("SELECT count(*) FROM row WHERE key LIKE 'b%'") == 0)
    try Self.expectSearchFindsANewRow(store)
  }

  /// A flat file written while it is checked gives what the row-by-row import of the same
  /// file gives: every field a flat row can have, text in other scripts, two sections.
  @Test(arguments: StoreKind.allCases)
  func aStreamedImportEqualsTheRowByRowImport(kind: StoreKind) throws {
    var random = SplitMix64(seed: 11)
    let words = ["Zoë", "café", "Row", "İstanbul", "日本", "plain", "tab\tback\\slash"]
    func word() -> String { words[random.next(words.count)] }
    func quoted(_ text: String) -> String { JSONValue.string(text).serialized }
    var serial = 0
    func rows(_ count: Int) -> String {
      (0..<count).map { _ in
        serial += 1
        var fields = [#""id": "r\#(serial)""#, #""text": \#(quoted(word() + " " + word()))"#]
        if random.next(3) == 0 { fields.append(#""detail": \#(quoted(word()))"#) }
        if random.next(4) == 0 { fields.append(#""style": "subtitle""#) }
        if random.next(5) == 0 { fields.append(#""accessory": "disclosure""#) }
        if random.next(5) == 0 { fields.append(#""switch": \#(random.next(2) == 0)"#) }
        if random.next(6) == 0 { fields.append(#""flagged": true"#) }
        if random.next(7) == 0 { fields.append(#""lines": 0"#) }
        return "{" + fields.joined(separator: ", ") + "}"
      }.joined(separator: ", ")
    }
    let file =
      #"{"id": "flat", "title": "Flat", "editable": true, "searchable": true, "sections": ["#
      + #"{"id": "one", "header": "One", "rows": [\#(rows(9_000))]}, "#
      + #"{"id": "two", "rows": [\#(rows(3_000))]}]}"#
    #expect(StreamedRows.skeleton(of: try JSONValue(parsing: file)) != nil)
    let bulk = try TemporaryStore(kind: kind, json: CommandTests.file)
    let rows = try TemporaryStore(kind: kind, json: CommandTests.file)
    rows.store.importsInBulk = false
    for round in 0..<2 {
      try bulk.store.importJSON(file)
      try rows.store.importJSON(file)
      #expect(try bulk.store.exportJSON() == (try rows.store.exportJSON()), "round \(round)")
      #expect(try Self.storedRows(bulk.store) == (try Self.storedRows(rows.store)))
    }
    #expect(
      try bulk.store.search(SearchQuery("istanbul zoe"), in: "flat").numberOfRows
        == (try rows.store.search(SearchQuery("istanbul zoe"), in: "flat").numberOfRows))
  }
}

extension SplitMix64 {
  /// A number below `bound`, the same for the same seed.
  fileprivate mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
