import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// A list's history as the store keeps it (`Store.history(of:before:count:)`), on both
/// stores: each command's kind, undo and redo, imports, and retention.
@Suite struct HistoryStoreTests {
  static let file = #"""
    {"id": "L", "title": "L", "editable": true, "selection": "multiple",
     "actions": [
       {"id": "flag", "title": "Flag", "edge": "leading", "color": "orange", "effect": "flag"},
       {"id": "delete", "title": "Delete", "color": "red", "effect": "delete"}],
     "sections": [{"id": "s", "rows": [{"id": "a", "text": "Milk"}, {"id": "b", "text": "Eggs"},
       {"id": "w", "text": "Wi-Fi", "switch": true}]}]}
    """#

  static let ann = ChangeAuthor(name: "Ann", role: .editor)

  @Test(arguments: StoreKind.allCases)
  func eachCommandIsItsKindWithASentence(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    _ = try store.performAction("flag", onRow: "a", in: "L", by: Self.ann)
    _ = try store.setSwitch("w", in: "L", isOn: false, by: Self.ann)
    _ = try store.select("b", in: "L", by: Self.ann)
    _ = try store.performAction("delete", onRow: "b", in: "L", by: Self.ann)
    // What undo and redo record: their command (`change_log.command`) names the kind.
    let milk = try #require(store.snapshot(of: "L").sections[0].rows.first)
    var oat = milk
    oat.text = "Oat milk"
    for (command, from, to) in [("undo", milk, oat), ("redo", oat, milk)] {
      _ = try store.write { () throws(StoreError) -> Int in
        try store.execute(
          """
          INSERT INTO list_log (at, list, version, kind, edits, prior, command, author)
          VALUES (unixepoch(), 'L', 90, 'edits', ?, ?, ?, 'Ann')
          """, RowEdit.serialized([.update(to)]), PriorRow.serialized([PriorRow(row: from)]),
          command)
        return 0
      }
    }
    // An app's own write, without an author: its kind from its edits, nobody named.
    _ = try store.deleteRows(["a"], in: "L")
    let page = try store.history(of: "L")
    #expect(
      page.entries.map(\.kind) == [
        .delete, .redo, .undo, .action, .select, .toggle, .action, .import,
      ])
    #expect(
      page.entries.map(\.summary) == [
        #"Someone deleted "Milk""#, #"Ann redid a change to "Oat milk""#,
        #"Ann undid a change to "Milk""#, #"Ann deleted "Eggs""#, #"Ann checked "Eggs""#,
        #"Ann turned off "Wi-Fi""#, #"Ann flagged "Milk""#, "The list was imported",
      ])
    #expect(page.entries.map(\.author) == [nil, "Ann", "Ann", "Ann", "Ann", "Ann", "Ann", nil])
    #expect(!page.more)
    #expect(throws: StoreError.notFound("no list nowhere")) { try store.history(of: "nowhere") }
  }

  @Test(arguments: StoreKind.allCases)
  func anImportIsRecordedInTheAuditAndTheHistory(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    try store.importJSON(Self.file)
    #expect(try store.changeLog().map(\.command) == ["import", "import"])
    #expect(try store.history(of: "L").entries.map(\.summary).first == "The list was imported")
  }

  @Test(arguments: StoreKind.allCases)
  func theHistoryFollowsTheLogsRetentionAndTheAuditItsOwn(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    store.logRetention = Store.LogRetention(count: 10)
    for step in 1...100 {
      _ = try store.updateRow("a", in: "L", text: "Milk \(step)", detail: nil, by: Self.ann)
    }
    let page = try store.history(of: "L", count: 200)
    #expect(page.entries.count >= 10 && page.entries.count < 10 + 64)
    #expect(page.entries.first?.summary == #"Ann renamed "Milk 99" to "Milk 100""#)
    // The audit record keeps them all, until they are older than its own retention.
    #expect(try store.changeLog(limit: 1_000).count == 101)
    _ = try store.write { () throws(StoreError) -> Int in
      try store.execute("UPDATE change_log SET at = at - 100 * 86400 WHERE id < 50")
      return 0
    }
    for step in 1...64 {
      _ = try store.updateRow("b", in: "L", text: "Eggs \(step)", detail: nil, by: Self.ann)
    }
    let audit = try store.changeLog(limit: 1_000).count
    #expect(audit == 101 + 64 - 49, "\(audit) records kept")
  }
}
