/// Computes the ops that take one version of a list's sections to the next: the work behind
/// ``TableDiff/ops(from:to:)``.
///
/// Three passes. Every old row is entered in a ``RowIDTable`` (finding duplicate old ids).
/// Then each new section is matched against the old section it continues: equal ids at the
/// start and end are paired without hashing; every other new row is looked up, which finds
/// duplicate new ids, inserts, moves across sections and the rows whose order within their
/// section is settled by a ``LongestIncreasingSubsequence``. Last, the old rows nobody
/// claimed are deletes.
struct TableDiffer {
  private let old: [Section]
  private let new: [Section]
  private var table: RowIDTable

  /// Per old section: the index of the same section in `new`, or -1 when it is deleted
  /// (gone, or moved: sections have no move op).
  private var newIndexOfOldSection: [Int] = []
  /// Per new section: the index of the same section in `old`, or -1 when it is inserted.
  private var oldIndexOfNewSection: [Int] = []
  /// Per old section: the key of its first row. Old rows are entered first and in order,
  /// so a row's key is its section's first key plus its row.
  private var firstKeyOfOldSection: [Int] = []
  /// Per old row, by key: the new section that holds the row, or -1 while none does.
  private var newSectionOfOldRow: [Int32] = []

  private var deletes: [IndexPath] = []
  private var inserts: [IndexPath] = []
  private var moves: [(from: IndexPath, to: IndexPath)] = []
  private var updates: [IndexPath] = []

  /// A row matched by lookup in the section being diffed: where it was and where it goes.
  private struct Match {
    var from: IndexPath
    var toRow: Int
  }
  private var matches: [Match] = []
  /// The old rows of the matches that stay in their section, in new order.
  private var oldRowsStaying: [Int] = []
  private var isStayingInOrder: [Bool] = []
  private var longestIncreasing = LongestIncreasingSubsequence()

  init(old: [Section], new: [Section]) {
    self.old = old
    self.new = new
    let oldRowCount = old.reduce(0) { $0 + $1.rows.count }
    let newRowCount = new.reduce(0) { $0 + $1.rows.count }
    table = RowIDTable(old: old, new: new, capacity: oldRowCount + newRowCount)
  }

  mutating func ops() throws(DiffError) -> [DiffOp] {
    try matchSections()
    try enterOldRows()
    for newSection in new.indices {
      let oldSection = oldIndexOfNewSection[newSection]
      if oldSection >= 0 {
        try matchRows(of: newSection, with: oldSection)
      } else {
        try claimRows(ofInserted: newSection)
      }
    }
    findDeletes()
    return assembledOps()
  }

  /// Pairs sections by id and keeps those on a longest run in the same relative order.
  private mutating func matchSections() throws(DiffError) {
    var oldIndexByID: [SectionID: Int] = [:]
    oldIndexByID.reserveCapacity(old.count)
    for (index, section) in old.enumerated() {
      guard oldIndexByID.updateValue(index, forKey: SectionID(section.id)) == nil else {
        throw .duplicateSectionID(section.id)
      }
    }
    var newIDs: Set<SectionID> = []
    newIDs.reserveCapacity(new.count)
    var pairedOld: [Int] = []
    var pairedNew: [Int] = []
    for (index, section) in new.enumerated() {
      let id = SectionID(section.id)
      guard newIDs.insert(id).inserted else { throw .duplicateSectionID(section.id) }
      if let oldIndex = oldIndexByID[id] {
        pairedOld.append(oldIndex)
        pairedNew.append(index)
      }
    }
    var isKept: [Bool] = []
    longestIncreasing.mark(pairedOld, into: &isKept)
    newIndexOfOldSection = Array(repeating: -1, count: old.count)
    oldIndexOfNewSection = Array(repeating: -1, count: new.count)
    for pair in pairedOld.indices where isKept[pair] {
      newIndexOfOldSection[pairedOld[pair]] = pairedNew[pair]
      oldIndexOfNewSection[pairedNew[pair]] = pairedOld[pair]
    }
  }

  private mutating func enterOldRows() throws(DiffError) {
    firstKeyOfOldSection.reserveCapacity(old.count)
    for (sectionIndex, section) in old.enumerated() {
      firstKeyOfOldSection.append(table.count)
      for (rowIndex, row) in section.rows.enumerated() {
        let location = RowIDTable.Location(side: .old, section: sectionIndex, row: rowIndex)
        guard table.enter(row.id, at: location) == nil else { throw .duplicateRowID(row.id) }
      }
    }
    newSectionOfOldRow = Array(repeating: -1, count: table.count)
  }

  private mutating func matchRows(of newSection: Int, with oldSection: Int) throws(DiffError) {
    let oldRows = old[oldSection].rows
    let newRows = new[newSection].rows

    // Equal ids at the start and the end stay where they are: no hashing for them.
    let common = min(oldRows.count, newRows.count)
    var prefix = 0
    while prefix < common, IDBytes.areEqual(oldRows[prefix].id, newRows[prefix].id) {
      prefix += 1
    }
    var suffix = 0
    while suffix < common - prefix,
      IDBytes.areEqual(
        oldRows[oldRows.count - 1 - suffix].id, newRows[newRows.count - 1 - suffix].id)
    {
      suffix += 1
    }
    for row in 0..<prefix {
      try keepRow(row, of: oldSection, as: row, of: newSection)
    }

    matches.removeAll(keepingCapacity: true)
    oldRowsStaying.removeAll(keepingCapacity: true)
    for newRow in prefix..<(newRows.count - suffix) {
      let id = newRows[newRow].id
      let location = RowIDTable.Location(side: .new, section: newSection, row: newRow)
      guard let key = table.enter(id, at: location) else {
        inserts.append(IndexPath(row: newRow, section: newSection))
        continue
      }
      let from = table.location(ofKey: key)
      guard from.side == .old, newSectionOfOldRow[key] < 0 else { throw .duplicateRowID(id) }
      newSectionOfOldRow[key] = Int32(newSection)
      if from.section == oldSection {
        oldRowsStaying.append(from.row)
      } else if newIndexOfOldSection[from.section] < 0 {
        // Its old section is deleted, and the row with it: here it is new.
        inserts.append(IndexPath(row: newRow, section: newSection))
        continue
      }
      matches.append(Match(from: IndexPath(row: from.row, section: from.section), toRow: newRow))
    }

    longestIncreasing.mark(oldRowsStaying, into: &isStayingInOrder)
    var staying = 0
    for match in matches {
      let to = IndexPath(row: match.toRow, section: newSection)
      if match.from.section != oldSection {
        moves.append((match.from, to))
      } else {
        if !isStayingInOrder[staying] { moves.append((match.from, to)) }
        staying += 1
      }
      if old[match.from.section].rows[match.from.row] != newRows[match.toRow] {
        updates.append(to)
      }
    }

    for offset in stride(from: suffix, to: 0, by: -1) {
      try keepRow(oldRows.count - offset, of: oldSection, as: newRows.count - offset, of: newSection)
    }
  }

  /// A row of the equal start or end of a section: it stays, and may have new content.
  private mutating func keepRow(
    _ oldRow: Int, of oldSection: Int, as newRow: Int, of newSection: Int
  ) throws(DiffError) {
    let key = firstKeyOfOldSection[oldSection] + oldRow
    // A row looked up earlier, with the same id, has claimed it.
    guard newSectionOfOldRow[key] < 0 else {
      throw .duplicateRowID(new[newSection].rows[newRow].id)
    }
    newSectionOfOldRow[key] = Int32(newSection)
    if old[oldSection].rows[oldRow] != new[newSection].rows[newRow] {
      updates.append(IndexPath(row: newRow, section: newSection))
    }
  }

  /// The rows of an inserted section come with it; they are looked up only so that an old
  /// row now living here counts as deleted, and so that duplicate ids are found.
  private mutating func claimRows(ofInserted newSection: Int) throws(DiffError) {
    for (rowIndex, row) in new[newSection].rows.enumerated() {
      let location = RowIDTable.Location(side: .new, section: newSection, row: rowIndex)
      guard let key = table.enter(row.id, at: location) else { continue }
      guard table.location(ofKey: key).side == .old, newSectionOfOldRow[key] < 0 else {
        throw .duplicateRowID(row.id)
      }
      newSectionOfOldRow[key] = Int32(newSection)
    }
  }

  /// Rows of surviving old sections that no surviving new section holds.
  private mutating func findDeletes() {
    for (oldSection, section) in old.enumerated() where newIndexOfOldSection[oldSection] >= 0 {
      let firstKey = firstKeyOfOldSection[oldSection]
      for row in section.rows.indices {
        let newSection = Int(newSectionOfOldRow[firstKey + row])
        if newSection < 0 || oldIndexOfNewSection[newSection] < 0 {
          deletes.append(IndexPath(row: row, section: oldSection))
        }
      }
    }
  }

  /// Section deletes, inserts and updates, then row deletes, inserts, moves and updates,
  /// each in index order.
  private func assembledOps() -> [DiffOp] {
    var ops: [DiffOp] = []
    ops.reserveCapacity(deletes.count + inserts.count + moves.count + updates.count)
    for (index, newIndex) in newIndexOfOldSection.enumerated() where newIndex < 0 {
      ops.append(.deleteSection(at: index))
    }
    for (index, oldIndex) in oldIndexOfNewSection.enumerated() where oldIndex < 0 {
      ops.append(.insertSection(at: index, section: new[index]))
    }
    for (index, oldIndex) in oldIndexOfNewSection.enumerated() where oldIndex >= 0 {
      let section = new[index]
      if !section.hasSameHeaderAndFooter(as: old[oldIndex]) {
        ops.append(.updateSection(at: index, header: section.header, footer: section.footer))
      }
    }
    for at in deletes { ops.append(.delete(at: at)) }
    for at in inserts { ops.append(.insert(at: at, row: new[at.section].rows[at.row])) }
    for move in moves { ops.append(.move(from: move.from, to: move.to)) }
    for at in updates { ops.append(.update(at: at, row: new[at.section].rows[at.row])) }
    return ops
  }
}

/// A section id compared and hashed by its bytes, like row ids.
private struct SectionID: Hashable {
  let id: String

  init(_ id: String) { self.id = id }

  static func == (a: SectionID, b: SectionID) -> Bool { IDBytes.areEqual(a.id, b.id) }

  func hash(into hasher: inout Hasher) {
    var id = id
    id.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
