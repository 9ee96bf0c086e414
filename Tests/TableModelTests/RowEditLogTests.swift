import Testing

@testable import TableModel

/// Row edits and prior rows as the change log keeps them: compact, and read back the same.
@Suite struct RowEditLogTests {
  static let plain = Row(id: "R1", text: "Milk")
  static let full = Row(
    id: "R2", style: .value1, text: "Wi-Fi", detail: "Home", image: "wifi.png",
    accessory: .disclosureIndicator, control: .switch(isOn: true), editingStyle: .delete,
    isMovable: true, isSelectable: false, lines: 0)

  @Test func editsRoundTripAndLeaveDefaultsOut() throws {
    let edits: [RowEdit] = [
      .insert(Self.plain, section: "S1", after: nil),
      .insert(Self.full, section: "S1", after: "R1"),
      .delete(row: "R9"), .move(row: "R1", section: "S2", after: "R2"), .update(Self.full),
    ]
    let text = RowEdit.serialized(edits)
    #expect(try RowEdit.decode(text) == edits)
    #expect(text.contains(#"{"id":"R1","text":"Milk"}"#))
    let prior = [
      PriorRow(row: Self.full), PriorRow(row: Self.plain, place: .init(section: "S1", after: nil)),
    ]
    #expect(try PriorRow.decode(PriorRow.serialized(prior)) == prior)
  }

  @Test func undoingAChangeGivesTheSnapshotBefore() throws {
    let before = TableSnapshot(
      list: "L", version: 4, title: "T",
      sections: [
        Section(id: "S1", rows: ["a", "b", "c"].map { Row(id: $0, text: $0) }),
        Section(id: "S2", rows: [Row(id: "d", text: "d")]),
      ])
    let edits: [RowEdit] = [
      .delete(row: "a"), .move(row: "c", section: "S2", after: nil),
      .insert(Row(id: "n", text: "n"), section: "S1", after: "b"), .update(Row(id: "b", text: "B")),
    ]
    var after = before
    try after.apply(edits)
    after.version = 5
    let prior = [
      PriorRow(row: Row(id: "a", text: "a"), place: .init(section: "S1", after: nil)),
      PriorRow(row: Row(id: "c", text: "c"), place: .init(section: "S1", after: "b")),
      PriorRow(row: Row(id: "b", text: "b")),
    ]
    #expect(try after.undoing(edits, prior: prior) == before)
    #expect(throws: UndoError.self) { try after.undoing(edits, prior: Array(prior.dropLast())) }
  }
}
