import Testing

@testable import TableModel

@Suite("Applying ops, and refusing those that do not fit")
struct DiffApplyTests {
  let list = sections("A: a b c", "B: d")

  func reason(_ ops: [DiffOp], on sections: [Section]? = nil) -> String? {
    do {
      _ = try TableDiff.apply(ops, to: sections ?? list)
      return nil
    } catch {
      guard case .invalidOp(let op, let reason) = error else { return "\(error)" }
      return "\(op): \(reason)"
    }
  }

  @Test func removalsIndexTheOldListAndPlacementsTheNewOne() throws {
    // Removals first (b at [0,1], c moving away from [0,2]), then placements, lowest first.
    let ops: [DiffOp] = [
      .insert(at: TableIndexPath(row: 0, section: 0), row: Row(id: "n", text: "n")),
      .delete(at: TableIndexPath(row: 1, section: 0)),
      .move(from: TableIndexPath(row: 2, section: 0), to: TableIndexPath(row: 1, section: 1)),
      .update(at: TableIndexPath(row: 1, section: 1), row: Row(id: "c", text: "c'")),
    ]
    #expect(try TableDiff.apply(ops, to: list) == sections("A: n a", "B: d c'"))
  }

  @Test func sectionOpsComeBeforeRowRemovalsAndAfterRowPlacements() throws {
    let ops: [DiffOp] = [
      .insert(at: TableIndexPath(row: 1, section: 1), row: Row(id: "e", text: "e")),
      .deleteSection(at: 0),
      .insertSection(at: 0, section: Section(id: "C", rows: [Row(id: "f", text: "f")])),
      .updateSection(at: 1, header: "h", footer: nil),
    ]
    #expect(try TableDiff.apply(ops, to: list) == sections("C: f", "B(h): d e"))
  }

  @Test func indexesOutOfRangeAreNamed() {
    #expect(
      reason([.delete(at: TableIndexPath(row: 3, section: 0))])
        == "delete [0,3]: section 0 had 3 rows")
    #expect(
      reason([.delete(at: TableIndexPath(row: -1, section: 0))])
        == "delete [0,-1]: section 0 had 3 rows"
    )
    #expect(reason([.deleteSection(at: 2)]) == "deleteSection 2: the list had 2 sections")
    #expect(
      reason([.insert(at: TableIndexPath(row: 3, section: 1), row: Row(id: "n", text: "n"))])
        == #"insert [1,3] "n": section 1 has 2 rows"#)
    #expect(
      reason([.update(at: TableIndexPath(row: 0, section: 2), row: Row(id: "a", text: "a"))])
        == #"update [2,0] "a": the list has 2 sections"#)
    #expect(
      reason([.updateSection(at: -1, header: nil, footer: nil)])
        == "updateSection -1: the list has 2 sections")
  }

  @Test func aRowRemovedTwiceIsRefused() {
    let ops: [DiffOp] = [
      .delete(at: TableIndexPath(row: 1, section: 0)),
      .move(from: TableIndexPath(row: 1, section: 0), to: TableIndexPath(row: 0, section: 1)),
    ]
    #expect(reason(ops) == "move [0,1] → [1,0]: delete [0,1] removes [0,1] too")
  }

  @Test func twoRowsPlacedAtOnePositionAreRefused() {
    let ops: [DiffOp] = [
      .insert(at: TableIndexPath(row: 0, section: 1), row: Row(id: "n", text: "n")),
      .move(from: TableIndexPath(row: 0, section: 0), to: TableIndexPath(row: 0, section: 1)),
    ]
    #expect(reason(ops) == #"move [0,0] → [1,0]: insert [1,0] "n" places [1,0] too"#)
  }

  @Test func rowOpsInsideDeletedOrInsertedSectionsAreRefused() {
    #expect(
      reason([.deleteSection(at: 0), .delete(at: TableIndexPath(row: 0, section: 0))])
        == "delete [0,0]: section 0 is deleted with its rows")
    let ops: [DiffOp] = [
      .insertSection(at: 0, section: Section(id: "C")),
      .insert(at: TableIndexPath(row: 0, section: 0), row: Row(id: "n", text: "n")),
    ]
    #expect(reason(ops) == #"insert [0,0] "n": section 0 is inserted with all its rows"#)
  }

  @Test func anUpdateMustKeepTheRowsID() {
    #expect(
      reason([.update(at: TableIndexPath(row: 0, section: 0), row: Row(id: "z", text: "z"))])
        == #"update [0,0] "z": the row at [0,0] has another id"#)
  }

  @Test func sectionsDeletedOrPlacedTwiceAreRefused() {
    #expect(
      reason([.deleteSection(at: 1), .deleteSection(at: 1)])
        == "deleteSection 1: section 1 is already deleted")
    let ops: [DiffOp] = [
      .insertSection(at: 0, section: Section(id: "C")),
      .insertSection(at: 0, section: Section(id: "D")),
    ]
    #expect(reason(ops) == #"insertSection 0 "D": insertSection 0 "C" places section 0 too"#)
  }
}
