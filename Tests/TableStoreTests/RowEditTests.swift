import TableModel
import Testing

/// `TableSnapshot.apply(_:)`: each edit, in order, and failures that leave it unchanged.
@Suite struct RowEditTests {
  func row(_ id: String, _ text: String? = nil) -> Row { Row(id: id, text: text ?? id) }

  var snapshot: TableSnapshot {
    TableSnapshot(
      list: "L", version: 1, title: "T",
      sections: [
        Section(id: "A", rows: [row("a1"), row("a2"), row("a3")]),
        Section(id: "B", rows: [row("b1")]),
        Section(id: "C"),
      ])
  }

  func ids(_ snapshot: TableSnapshot) -> [[String]] { snapshot.sections.map { $0.rows.map(\.id) } }

  @Test func editsApplyInOrder() throws {
    var table = snapshot
    try table.apply([
      .delete(row: "a2"),
      .insert(row("n1"), section: "C", after: nil),
      .insert(row("n2"), section: "C", after: "n1"),
      .insert(row("n0"), section: "A", after: nil),
      .move(row: "b1", section: "A", after: "a3"),
      .move(row: "a1", section: "C", after: "n1"),
      .update(row("a3", "three")),
    ])
    #expect(ids(table) == [["n0", "a3", "b1"], [], ["n1", "a1", "n2"]])
    #expect(table.sections[0].rows[1].text == "three")
    #expect(table.indexPath(ofRow: "a1") == TableIndexPath(row: 1, section: 2))
  }

  @Test func aFailingEditLeavesTheSnapshotUnchanged() {
    let cases: [([RowEdit], RowEditError)] = [
      ([.delete(row: "a1"), .delete(row: "zz")], .rowNotFound("zz")),
      ([.insert(row("a1"), section: "A", after: nil)], .duplicateRow("a1")),
      ([.insert(row("n"), section: "Z", after: nil)], .sectionNotFound("Z")),
      ([.insert(row("n"), section: "A", after: "b1")], .rowNotFound("b1")),
      ([.move(row: "a1", section: "B", after: "a2")], .rowNotFound("a2")),
      ([.update(row("zz"))], .rowNotFound("zz")),
    ]
    for (edits, expected) in cases {
      var table = snapshot
      #expect(throws: expected) { try table.apply(edits) }
      #expect(table == snapshot)
    }
  }
}
