import PropertyBased
import Testing

@testable import TableModel

@Suite("Diff properties, over random pairs of lists")
struct DiffPropertyTests {
  @Test func applyingTheDiffGivesTheNewList() async throws {
    await propertyCheck(count: 2000, input: Gen.listPair) { pair in
      let ops = try TableDiff.ops(from: pair.old, to: pair.new)
      let applied = try TableDiff.apply(ops, to: pair.old)
      let isNew = applied == pair.new
      #expect(isNew, "ops: \(ops) give \(notation(applied))")
    }
  }

  @Test func opsFollowUIKitsBatchUpdateRules() async throws {
    await propertyCheck(count: 2000, input: Gen.listPair) { pair in
      let ops = try TableDiff.ops(from: pair.old, to: pair.new)
      let broken = BatchUpdateRules.violations(of: ops, from: pair.old, to: pair.new)
      #expect(broken.isEmpty, "ops: \(ops)")
    }
  }

  @Test func movesAreAsFewAsBruteForceFinds() async throws {
    await propertyCheck(count: 2000, input: Gen.listPair) { pair in
      let ops = try TableDiff.ops(from: pair.old, to: pair.new)
      let fewest = BatchUpdateRules.fewestMoves(for: ops, from: pair.old, to: pair.new)
      #expect(ops.filter(\.isMove).count == fewest.rows, "ops: \(ops)")
      let reinserted = ops.filter {
        guard case .insertSection(_, let section) = $0 else { return false }
        return pair.old.contains { $0.id == section.id }
      }
      #expect(reinserted.count == fewest.sections, "ops: \(ops)")
    }
  }

  @Test func longListsWithScatteredEditsKeepEveryRule() async throws {
    await propertyCheck(count: 500, input: Gen.longListPair) { pair in
      let ops = try TableDiff.ops(from: pair.old, to: pair.new)
      let isNew = try TableDiff.apply(ops, to: pair.old) == pair.new
      #expect(isNew, "ops: \(ops)")
      let broken = BatchUpdateRules.violations(of: ops, from: pair.old, to: pair.new)
      #expect(broken.isEmpty, "\(broken)")
      let fewest = BatchUpdateRules.fewestMoves(
        for: ops, from: pair.old, to: pair.new,
        longestInOrder: BatchUpdateRules.longestInOrderQuadratic)
      #expect(ops.filter(\.isMove).count == fewest.rows)
    }
  }

  @Test func aDuplicateAnywhereInALongListIsNamed() async throws {
    let choice = Gen.int(in: 0...10_000)
    await propertyCheck(count: 500, input: Gen.longListPair, Gen.bool, choice, choice) {
      pair, inOld, which, place in
      var sections = inOld ? pair.old : pair.new
      let rows = sections.flatMap(\.rows)
      guard !rows.isEmpty else { return }
      let duplicated = rows[which % rows.count]
      let target = place % sections.count
      sections[target].rows.insert(duplicated, at: place % (sections[target].rows.count + 1))
      #expect(throws: DiffError.duplicateRowID(duplicated.id)) {
        if inOld {
          _ = try TableDiff.ops(from: sections, to: pair.new)
        } else {
          _ = try TableDiff.ops(from: pair.old, to: sections)
        }
      }
    }
  }

  @Test func aListDiffedWithItselfHasNoOps() async throws {
    await propertyCheck(count: 500, input: Gen.sections) { sections in
      let ops = try TableDiff.ops(from: sections, to: sections)
      #expect(ops == [])
    }
  }

  @Test func aDuplicatedRowIDIsNamed() async throws {
    await propertyCheck(count: 500, input: Gen.listPair, Gen.bool) { pair, inOld in
      var sections = inOld ? pair.old : pair.new
      guard let duplicated = sections.flatMap(\.rows).first, !sections.isEmpty else { return }
      let target = sections.indices.last!
      sections[target].rows.insert(duplicated, at: sections[target].rows.count / 2)
      #expect(throws: DiffError.duplicateRowID(duplicated.id)) {
        if inOld {
          _ = try TableDiff.ops(from: sections, to: pair.new)
        } else {
          _ = try TableDiff.ops(from: pair.old, to: sections)
        }
      }
    }
  }

  @Test func applyRejectsOpsThatDoNotFitAndNeverTraps() async throws {
    await propertyCheck(count: 3000, input: Gen.sections, Gen.ops) { sections, ops in
      do {
        let applied = try TableDiff.apply(ops, to: sections)
        // What it accepted keeps the rows' count straight.
        let removed = ops.filter(\.removesRow).count
        let placed = ops.filter(\.placesRow).count
        let deletedRows = ops.reduce(0) {
          guard case .deleteSection(let at) = $1 else { return $0 }
          return $0 + sections[at].rows.count
        }
        let insertedRows = ops.reduce(0) {
          guard case .insertSection(_, let section) = $1 else { return $0 }
          return $0 + section.rows.count
        }
        #expect(
          applied.reduce(0) { $0 + $1.rows.count }
            == sections.reduce(0) { $0 + $1.rows.count } - removed - deletedRows + placed
            + insertedRows)
      } catch {
        guard case .invalidOp(let op, _) = error as? DiffError else {
          Issue.record("unexpected \(error)")
          return
        }
        #expect(ops.contains(op))
      }
    }
  }
}

extension DiffOp {
  var isMove: Bool { if case .move = self { true } else { false } }

  var removesRow: Bool {
    switch self {
    case .delete, .move: true
    default: false
    }
  }

  var placesRow: Bool {
    switch self {
    case .insert, .move: true
    default: false
    }
  }
}
