import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// The change log is pruned by count and by age as commits go, on both stores.
@Suite struct LogRetentionTests {
  static let file = """
    {"id": "home", "title": "Home", "editable": true, "sections": [{"id": "s", "rows": [
      {"id": "a", "text": "A"}]}]}
    """

  func entries(_ store: Store) throws -> (count: Int, newest: Int) {
    let count = try store.read { () throws(StoreError) in
      try store.fetchInt("SELECT count(*) FROM list_log") ?? 0
    }
    return (count, try store.logHighWater())
  }

  @Test(arguments: StoreKind.allCases)
  func theLogKeepsItsCountAndTheNewestEntry(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    store.logRetention = Store.LogRetention(count: 100)
    for step in 1...700 { _ = try store.updateRow("a", in: "home", text: "A\(step)", detail: nil) }
    let (count, newest) = try entries(store)
    #expect(count >= 100 && count < 100 + 64, "\(count) entries kept")
    let last = try store.logEntries(after: newest - 1)
    #expect(last.count == 1 && last.first?.edits?.isEmpty == false)
  }

  @Test(arguments: StoreKind.allCases)
  func entriesOlderThanTheAgeGoFromTheOldestEnd(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    store.logRetention = Store.LogRetention(count: 10_000, age: 600)
    for step in 1...100 { _ = try store.updateRow("a", in: "home", text: "A\(step)", detail: nil) }
    // As if those were written two hours ago.
    _ = try store.write { () throws(StoreError) -> Int in
      try store.execute("UPDATE list_log SET at = at - 7200")
      return 0
    }
    let old = try entries(store)
    for step in 1...200 { _ = try store.updateRow("a", in: "home", text: "B\(step)", detail: nil) }
    let (count, newest) = try entries(store)
    #expect(newest == old.newest + 200)
    // Every old entry went (256 a prune, from the oldest end); the new ones stayed.
    #expect(count == 200, "\(count) entries kept")
  }
}
