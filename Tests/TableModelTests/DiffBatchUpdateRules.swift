@testable import TableModel

/// UIKit's rules for a batch update, checked op by op without the diff's own code: what a
/// correct diff must satisfy beyond taking the old list to the new one.
enum BatchUpdateRules {
  static func violations(of ops: [DiffOp], from old: [Section], to new: [Section]) -> [String] {
    var problems: [String] = []
    func fail(_ op: DiffOp, _ why: String) { problems.append("\(op): \(why)") }

    var deletedSections: Set<Int> = []
    var insertedSections: Set<Int> = []
    var updatedSections: Set<Int> = []
    for op in ops {
      switch op {
      case .deleteSection(let at):
        if !old.indices.contains(at) { fail(op, "no such old section") }
        if !deletedSections.insert(at).inserted { fail(op, "section deleted twice") }
      case .insertSection(let at, let section):
        if !new.indices.contains(at) {
          fail(op, "no such new section")
        } else if section != new[at] {
          fail(op, "is not the new section with all its rows")
        }
        if !insertedSections.insert(at).inserted { fail(op, "section inserted twice") }
      case .updateSection(let at, let header, let footer):
        if !new.indices.contains(at) {
          fail(op, "no such new section")
        } else if header != new[at].header || footer != new[at].footer {
          fail(op, "not the new header and footer")
        } else if let before = old.first(where: { $0.id == new[at].id }),
          before.hasSameHeaderAndFooter(as: new[at])
        {
          fail(op, "header and footer did not change")
        }
        if !updatedSections.insert(at).inserted { fail(op, "section updated twice") }
      default:
        continue
      }
    }
    if !updatedSections.isDisjoint(with: insertedSections) {
      problems.append("an inserted section is also updated")
    }
    let survivingOld = old.indices.filter { !deletedSections.contains($0) }
    let survivingNew = new.indices.filter { !insertedSections.contains($0) }
    if survivingOld.map({ old[$0].id }) != survivingNew.map({ new[$0].id }) {
      problems.append("the surviving sections are not the same in the same order")
      return problems
    }
    let survivingOldIDs = Set(survivingOld.flatMap { old[$0].rows.map(\.id) })
    let survivingNewIDs = Set(survivingNew.flatMap { new[$0].rows.map(\.id) })
    let oldRows = Dictionary(uniqueKeysWithValues: old.flatMap(\.rows).map { ($0.id, $0) })

    var removed: Set<TableIndexPath> = []
    var placed: Set<TableIndexPath> = []
    var updated: Set<TableIndexPath> = []
    func isRemovable(_ at: TableIndexPath, _ op: DiffOp) -> Bool {
      guard old.indices.contains(at.section), old[at.section].rows.indices.contains(at.row) else {
        fail(op, "\(at) is not a row of the old list")
        return false
      }
      if deletedSections.contains(at.section) { fail(op, "\(at) is in a deleted section") }
      if !removed.insert(at).inserted { fail(op, "\(at) is removed twice (deleted and moved?)") }
      return true
    }
    func isPlaceable(_ at: TableIndexPath, _ op: DiffOp) -> Bool {
      guard new.indices.contains(at.section), new[at.section].rows.indices.contains(at.row) else {
        fail(op, "\(at) is not a row of the new list")
        return false
      }
      if insertedSections.contains(at.section) { fail(op, "\(at) is in an inserted section") }
      if !placed.insert(at).inserted { fail(op, "\(at) is placed twice (inserted and moved?)") }
      return true
    }
    for op in ops {
      switch op {
      case .delete(let at):
        if isRemovable(at, op), survivingNewIDs.contains(old[at.section].rows[at.row].id) {
          fail(op, "the row is still in the list: a move")
        }
      case .insert(let at, let row):
        if isPlaceable(at, op) {
          if row != new[at.section].rows[at.row] { fail(op, "not the new row") }
          if survivingOldIDs.contains(row.id) { fail(op, "the row was in the list: a move") }
        }
      case .move(let from, let to):
        if isRemovable(from, op), isPlaceable(to, op),
          old[from.section].rows[from.row].id != new[to.section].rows[to.row].id
        {
          fail(op, "moves one row to another row's place")
        }
      case .update(let at, let row):
        guard new.indices.contains(at.section), new[at.section].rows.indices.contains(at.row) else {
          fail(op, "\(at) is not a row of the new list")
          continue
        }
        if row != new[at.section].rows[at.row] { fail(op, "not the new row") }
        if insertedSections.contains(at.section) { fail(op, "in an inserted section") }
        if oldRows[row.id] == nil || oldRows[row.id] == row { fail(op, "nothing to update") }
        if !updated.insert(at).inserted { fail(op, "updated twice") }
      default:
        continue
      }
    }
    for (before, after) in zip(survivingOld, survivingNew) {
      let removedHere = removed.filter { $0.section == before }.count
      let placedHere = placed.filter { $0.section == after }.count
      if old[before].rows.count - removedHere + placedHere != new[after].rows.count {
        problems.append("section \(new[after].id) does not add up")
      }
    }
    return problems
  }

  /// The fewest row moves a diff with these section ops can make, and the fewest sections
  /// that must be deleted and inserted again because sections cannot move: both by trying
  /// every subset of the rows (sections) that could keep their order.
  static func fewestMoves(
    for ops: [DiffOp], from old: [Section], to new: [Section],
    longestInOrder: ([Int]) -> Int = longestInOrder
  ) -> (
    rows: Int, sections: Int
  ) {
    let deletedSections = Set(
      ops.compactMap { op -> Int? in
        if case .deleteSection(let at) = op { at } else { nil }
      })
    let insertedSections = Set(
      ops.compactMap { op -> Int? in
        if case .insertSection(let at, _) = op { at } else { nil }
      })
    let survivingOld = old.indices.filter { !deletedSections.contains($0) }
    let survivingNew = new.indices.filter { !insertedSections.contains($0) }
    var oldPlace: [String: TableIndexPath] = [:]
    for section in survivingOld {
      for (row, value) in old[section].rows.enumerated() {
        oldPlace[value.id] = TableIndexPath(row: row, section: section)
      }
    }
    var rowMoves = 0
    for (before, after) in zip(survivingOld, survivingNew) {
      var staying: [Int] = []
      for row in new[after].rows {
        guard let from = oldPlace[row.id] else { continue }
        if from.section == before { staying.append(from.row) } else { rowMoves += 1 }
      }
      rowMoves += staying.count - longestInOrder(staying)
    }
    let oldSectionIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1.id, $0) })
    let pairedSections = new.compactMap { oldSectionIndex[$0.id] }
    return (rowMoves, pairedSections.count - longestInOrder(pairedSections))
  }

  /// The size of the largest subsequence of `values` in increasing order, by the textbook
  /// quadratic dynamic programme: for lists too long to try every subset.
  static func longestInOrderQuadratic(_ values: [Int]) -> Int {
    var longestEndingAt = [Int](repeating: 1, count: values.count)
    for end in values.indices {
      for start in 0..<end where values[start] < values[end] {
        longestEndingAt[end] = max(longestEndingAt[end], longestEndingAt[start] + 1)
      }
    }
    return longestEndingAt.max() ?? 0
  }

  /// The size of the largest subsequence of `values` in increasing order, by brute force.
  static func longestInOrder(_ values: [Int]) -> Int {
    precondition(values.count <= 20, "brute force over \(values.count) values")
    var best = 0
    for subset in 0..<(1 << values.count) where subset.nonzeroBitCount > best {
      var last = Int.min
      var increasing = true
      for index in values.indices where subset & (1 << index) != 0 {
        if values[index] <= last {
          increasing = false
          break
        }
        last = values[index]
      }
      if increasing { best = subset.nonzeroBitCount }
    }
    return best
  }
}
