import Testing
import TableModel

@testable import TableStore

@Suite struct StoreSmokeTests {
  @Test func importsSnapshotsAndInserts() throws {
    let temporary = try TemporaryStore(
      json: """
        {"title": "Tasks", "editable": true, "sections": [{"id": "S", "rows": [
          {"id": "a", "text": "A"}, {"id": "b", "text": "B"}]}]}
        """)
    let store = temporary.store
    let root = try store.rootList()
    var snapshot = try store.snapshot(of: root)
    #expect(snapshot.sections[0].rows.map(\.text) == ["A", "B"])
    let change = try store.insertRow(in: root, section: "S", after: "a", NewRow(text: "C"))
    #expect(change.lists.count == 1)
    #expect(change.lists[0].version == snapshot.version + 1)
    try snapshot.apply(try #require(change.lists[0].edits))
    snapshot.version = change.lists[0].version
    #expect(snapshot == (try store.snapshot(of: root)))
    #expect(snapshot.sections[0].rows.map(\.text) == ["A", "C", "B"])
  }
}
