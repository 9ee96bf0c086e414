import Testing

@testable import TableModel

@Suite("Diff: the ops between two versions of a list")
struct DiffTests {
  @Test func equalListsHaveNoOps() throws {
    #expect(try diff(sections("A: a b c", "B: d"), sections("A: a b c", "B: d")) == [])
    #expect(try diff([], []) == [])
  }

  @Test func removedRowIsDeletedAtItsOldIndexPath() throws {
    #expect(try diff(sections("A: a", "B: b c d"), sections("A: a", "B: b d")) == ["delete [1,1]"])
  }

  @Test func newRowIsInsertedAtItsNewIndexPath() throws {
    #expect(
      try diff(sections("A: a", "B: b d"), sections("A: a", "B: b c d"))
        == [#"insert [1,1] "c""#])
  }

  @Test func rowWithNewContentIsUpdatedAtItsNewIndexPath() throws {
    #expect(
      try diff(sections("A: x a b c"), sections("A: a b' c")) == [
        "delete [0,0]", #"update [0,1] "b""#,
      ])
  }

  @Test func theRowOffTheLongestRunInOrderIsTheOneThatMoves() throws {
    #expect(try diff(sections("A: a b c d e"), sections("A: b c d e a")) == ["move [0,0] → [0,4]"])
    #expect(try diff(sections("A: a b c d e"), sections("A: e a b c d")) == ["move [0,4] → [0,0]"])
  }

  @Test func swappingTwoRowsIsOneMove() throws {
    let ops = try diff(sections("A: a b"), sections("A: b a"))
    #expect(ops == ["move [0,0] → [0,1]"] || ops == ["move [0,1] → [0,0]"])
  }

  @Test func reversingRowsKeepsOneInPlace() throws {
    #expect(try diff(sections("A: a b c d"), sections("A: d c b a")).count == 3)
  }

  @Test func movedRowWithNewContentIsMovedAndUpdated() throws {
    #expect(
      try diff(sections("A: a b c"), sections("A: b c a'")) == [
        "move [0,0] → [0,2]", #"update [0,2] "a""#,
      ])
  }

  @Test func rowsMoveAcrossSections() throws {
    #expect(
      try diff(sections("A: a b", "B: c"), sections("A: a", "B: c b")) == ["move [0,1] → [1,1]"])
    #expect(
      try diff(sections("A: a b", "B: c"), sections("A: b", "B: a' c")) == [
        "move [0,0] → [1,0]", #"update [1,0] "a""#,
      ])
  }

  @Test func rowsLeavingAnOtherwiseUnchangedSectionStillMove() throws {
    // Every other row of A stays in order, so nothing in A needs a table: b and d must
    // still be found in B.
    #expect(
      try diff(sections("A: a b c d e", "B: x"), sections("A: a c e", "B: d x b")) == [
        "move [0,3] → [1,0]", "move [0,1] → [1,2]",
      ])
  }

  @Test func newSectionIsInsertedWithAllItsRows() throws {
    #expect(
      try diff(sections("A: a"), sections("A: a", "B: b c")) == [#"insertSection 1 "B""#])
  }

  @Test func removedSectionIsDeletedWithAllItsRows() throws {
    #expect(
      try diff(sections("A: a", "B: b c", "C: d"), sections("A: a", "C: d")) == ["deleteSection 1"])
  }

  @Test func sectionWithNewHeaderIsUpdated() throws {
    #expect(
      try diff(sections("A: a", "B(old): b"), sections("A: a", "B(new): b")) == ["updateSection 1"])
  }

  @Test func sectionsHaveNoMoveSoReorderingDeletesAndInsertsTheFewest() throws {
    #expect(
      try diff(sections("A: a", "B: b", "C: c"), sections("B: b", "C: c", "A: a")) == [
        "deleteSection 0", #"insertSection 2 "A""#,
      ])
  }

  @Test func rowsOfAReinsertedSectionComeWithItAndNeedNoOps() throws {
    // A goes to the end: deleted and inserted again, carrying its rows as they are now;
    // `x` leaves it, so it is inserted into B.
    #expect(
      try diff(sections("A: a x", "B: b", "C: c"), sections("B: b x", "C: c", "A: a'")) == [
        "deleteSection 0", #"insertSection 2 "A""#, #"insert [0,1] "x""#,
      ])
  }

  @Test func rowMovingOutOfADeletedSectionIsInserted() throws {
    #expect(
      try diff(sections("A: a", "B: b c"), sections("A: a c")) == [
        "deleteSection 1", #"insert [0,1] "c""#,
      ])
  }

  @Test func rowMovingIntoAnInsertedSectionIsDeleted() throws {
    #expect(
      try diff(sections("A: a c"), sections("A: a", "B: b c")) == [
        #"insertSection 1 "B""#, "delete [0,1]",
      ])
  }

  @Test func everyKindOfOpAtOnce() throws {
    let old = sections("A: a b c d", "B(b): e f", "C: g")
    let new = sections("A: d' a c n", "B(b2): f e'", "D: h")
    #expect(
      try diff(old, new) == [
        "deleteSection 2", #"insertSection 2 "D""#, "updateSection 1", "delete [0,1]",
        #"insert [0,3] "n""#, "move [0,3] → [0,0]", "move [1,1] → [1,0]", #"update [0,0] "d""#,
        #"update [1,1] "e""#,
      ])
  }

  @Test func duplicateRowIDsAreRejectedByName() {
    #expect(throws: DiffError.duplicateRowID("a")) {
      try TableDiff.ops(from: sections("A: a b a"), to: sections("A: a"))
    }
    #expect(throws: DiffError.duplicateRowID("b")) {
      try TableDiff.ops(from: sections("A: a b"), to: sections("A: a b", "B: b"))
    }
    // Across sections, and where both copies sit in the unchanged start of their sections.
    #expect(throws: DiffError.duplicateRowID("a")) {
      try TableDiff.ops(from: sections("A: a", "B: a"), to: sections("A: a", "B: a"))
    }
    #expect(throws: DiffError.duplicateRowID("n")) {
      try TableDiff.ops(from: sections("A: a"), to: sections("A: a n n"))
    }
  }

  @Test func duplicateSectionIDsAreRejectedByName() {
    #expect(throws: DiffError.duplicateSectionID("A")) {
      try TableDiff.ops(from: sections("A: a", "A: b"), to: sections("A: a"))
    }
    #expect(throws: DiffError.duplicateSectionID("B")) {
      try TableDiff.ops(from: sections("A: a"), to: sections("B: a", "B: b"))
    }
  }

  @Test func idsAreComparedByTheirBytes() throws {
    // "é" precomposed and decomposed are equal Swift strings but different ids on the wire.
    let old = [Section(id: "A", rows: [Row(id: "caf\u{E9}", text: "x")])]
    let new = [Section(id: "A", rows: [Row(id: "cafe\u{301}", text: "x")])]
    #expect(
      try TableDiff.ops(from: old, to: new).map(\.description) == [
        "delete [0,0]", "insert [0,0] \"cafe\u{301}\"",
      ])
  }

  @Test func longIdsAreMatchedAsWellAsShortOnes() throws {
    let long = String(repeating: "row-with-a-long-identifier-", count: 3)
    let old = sections("A: \(long)1 \(long)2 \(long)3", "B: \(long)4")
    let new = sections("A: \(long)3 \(long)1", "B: \(long)2' \(long)4")
    // The long ids hash over several words; the ops are the same as for short ones.
    #expect(
      try diff(old, new) == [
        "move [0,2] → [0,0]", "move [0,1] → [1,0]", "update [1,0] \"\(long)2\"",
      ])
  }

  @Test func diffCarriesItsListAndVersions() throws {
    let diff = try TableDiff(list: "L7", from: 12, old: sections("A: a"), new: sections("A: a b"))
    #expect(diff.list == "L7" && diff.from == 12 && diff.to == 13 && diff.ops.count == 1)
  }
}
