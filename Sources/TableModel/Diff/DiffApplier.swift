/// Applies ops to sections the way protocol-core (and UIKit's batch updates) says: remove
/// the deleted sections and every deleted or moved row at its old position, then place the
/// inserted sections, then every inserted or moved row at its new position (lowest first),
/// then the updates. The work behind ``LoadedScreen/apply(_:)``.
///
/// A section may hold only a prefix of its rows (what a client has loaded); a full section
/// is a prefix that happens to be complete. Every index is checked against the section's
/// full `count`. Past a prefix only the count changes; a row the client never had that
/// lands inside its prefix (moved in from past it) ends the prefix there.
///
/// Every op is checked before it is used; one that does not fit throws
/// ``DiffError/invalidOp(_:reason:)`` naming it.
struct DiffApplier {
  private let ops: [DiffOp]
  private var sections: [LoadedSection]

  /// Per old section, then per new section once sections are placed.
  private var isDeleted: [Bool] = []
  private var isInserted: [Bool] = []
  /// The rows removed by moves, by the index of their op; none for a row past its
  /// section's prefix.
  private var movedRows: [Int: Row] = [:]

  init(ops: [DiffOp], sections: [LoadedSection]) {
    self.ops = ops
    self.sections = sections
  }

  mutating func apply() throws(DiffError) -> [LoadedSection] {
    try markDeletedSections()
    try removeRows()
    sections = sections.indices.filter { !isDeleted[$0] }.map { sections[$0] }
    try placeSections()
    try placeRows()
    try applyUpdates()
    return sections
  }

  private func invalid(_ op: Int, _ reason: String) -> DiffError {
    .invalidOp(ops[op], reason: reason)
  }

  private func sectionCount() -> String {
    sections.count == 1 ? "1 section" : "\(sections.count) sections"
  }

  private func rowCount(_ section: Int) -> String {
    let count = sections[section].count
    return count == 1 ? "1 row" : "\(count) rows"
  }

  private mutating func markDeletedSections() throws(DiffError) {
    isDeleted = Array(repeating: false, count: sections.count)
    for (op, diffOp) in ops.enumerated() {
      guard case .deleteSection(let at) = diffOp else { continue }
      guard sections.indices.contains(at) else {
        throw invalid(op, "the list had \(sectionCount())")
      }
      guard !isDeleted[at] else { throw invalid(op, "section \(at) is already deleted") }
      isDeleted[at] = true
    }
  }

  /// Deleted and moved-away rows, at their old index paths.
  private mutating func removeRows() throws(DiffError) {
    var removals: [Int: [(row: Int, op: Int)]] = [:]
    for (op, diffOp) in ops.enumerated() {
      let at: TableIndexPath
      switch diffOp {
      case .delete(let path), .move(let path, _): at = path
      default: continue
      }
      guard sections.indices.contains(at.section) else {
        throw invalid(op, "the list had \(sectionCount())")
      }
      guard !isDeleted[at.section] else {
        throw invalid(op, "section \(at.section) is deleted with its rows")
      }
      guard (0..<sections[at.section].count).contains(at.row) else {
        throw invalid(op, "section \(at.section) had \(rowCount(at.section))")
      }
      removals[at.section, default: []].append((at.row, op))
    }
    for section in removals.keys.sorted() {
      let removed = removals[section]!.sorted { $0.row < $1.row }
      for (earlier, later) in zip(removed, removed.dropFirst()) where earlier.row == later.row {
        throw invalid(later.op, "\(ops[earlier.op]) removes [\(section),\(later.row)] too")
      }
      let rows = sections[section].rows
      var kept: [Row] = []
      kept.reserveCapacity(rows.count)
      var next = removed.startIndex
      for (index, row) in rows.enumerated() {
        if next < removed.endIndex, removed[next].row == index {
          if case .move = ops[removed[next].op] { movedRows[removed[next].op] = row }
          next += 1
        } else {
          kept.append(row)
        }
      }
      sections[section].rows = kept
      sections[section].count -= removed.count
    }
  }

  private mutating func placeSections() throws(DiffError) {
    var placements: [(at: Int, op: Int)] = []
    for (op, diffOp) in ops.enumerated() {
      if case .insertSection(let at, _) = diffOp { placements.append((at, op)) }
    }
    placements.sort { $0.at < $1.at }
    let count = sections.count + placements.count
    var placed: [LoadedSection] = []
    placed.reserveCapacity(count)
    isInserted = []
    isInserted.reserveCapacity(count)
    var remaining = sections.makeIterator()
    var next = 0
    for (index, placement) in placements.enumerated() {
      guard (0..<count).contains(placement.at) else {
        throw invalid(placement.op, "the list has \(count) sections")
      }
      if index > 0, placements[index - 1].at == placement.at {
        throw invalid(
          placement.op, "\(ops[placements[index - 1].op]) places section \(placement.at) too")
      }
      while next < placement.at, let section = remaining.next() {
        placed.append(section)
        isInserted.append(false)
        next += 1
      }
      guard case .insertSection(_, let section) = ops[placement.op] else { continue }
      placed.append(LoadedSection(section))
      isInserted.append(true)
      next += 1
    }
    while let section = remaining.next() {
      placed.append(section)
      isInserted.append(false)
    }
    sections = placed
  }

  /// Inserted and moved rows, at their new index paths, lowest first.
  private mutating func placeRows() throws(DiffError) {
    var placements: [Int: [(row: Int, op: Int)]] = [:]
    for (op, diffOp) in ops.enumerated() {
      let at: TableIndexPath
      switch diffOp {
      case .insert(let path, _), .move(_, let path): at = path
      default: continue
      }
      guard sections.indices.contains(at.section) else {
        throw invalid(op, "the list has \(sectionCount())")
      }
      guard !isInserted[at.section] else {
        throw invalid(op, "section \(at.section) is inserted with all its rows")
      }
      placements[at.section, default: []].append((at.row, op))
    }
    for section in placements.keys.sorted() {
      let placed = placements[section]!.sorted { $0.row < $1.row }
      let rows = sections[section].rows
      let count = sections[section].count + placed.count
      var merged: [Row] = []
      merged.reserveCapacity(rows.count + placed.count)
      var remaining = rows.makeIterator()
      var prefixEnded = false
      for (index, placement) in placed.enumerated() {
        guard (0..<count).contains(placement.row) else {
          throw invalid(placement.op, "section \(section) has \(count) rows")
        }
        if index > 0, placed[index - 1].row == placement.row {
          throw invalid(
            placement.op, "\(ops[placed[index - 1].op]) places [\(section),\(placement.row)] too")
        }
        guard !prefixEnded else { continue }
        while merged.count < placement.row, let row = remaining.next() { merged.append(row) }
        // Past the prefix: only the count changes.
        guard merged.count == placement.row else {
          prefixEnded = true
          continue
        }
        let row: Row?
        switch ops[placement.op] {
        case .insert(_, let inserted): row = inserted
        default: row = movedRows[placement.op]
        }
        guard let row else {
          // A row this prefix never had lands inside it: the prefix ends here.
          prefixEnded = true
          continue
        }
        merged.append(row)
      }
      if !prefixEnded {
        while let row = remaining.next() { merged.append(row) }
      }
      sections[section].rows = merged
      sections[section].count = count
    }
  }

  private mutating func applyUpdates() throws(DiffError) {
    var updatedRows: Set<TableIndexPath> = []
    var updatedSections: Set<Int> = []
    for (op, diffOp) in ops.enumerated() {
      switch diffOp {
      case .update(let at, let row):
        guard sections.indices.contains(at.section) else {
          throw invalid(op, "the list has \(sectionCount())")
        }
        guard (0..<sections[at.section].count).contains(at.row) else {
          throw invalid(op, "section \(at.section) has \(rowCount(at.section))")
        }
        guard updatedRows.insert(at).inserted else { throw invalid(op, "\(at) is updated twice") }
        let loaded = sections[at.section].rows.count
        if at.row < loaded {
          guard IDBytes.areEqual(sections[at.section].rows[at.row].id, row.id) else {
            throw invalid(op, "the row at \(at) has another id")
          }
          sections[at.section].rows[at.row] = row
        } else if at.row == loaded {
          // The row just past the prefix, known now: the prefix grows by one.
          sections[at.section].rows.append(row)
        }
      case .updateSection(let at, let header, let footer):
        guard sections.indices.contains(at) else {
          throw invalid(op, "the list has \(sectionCount())")
        }
        guard updatedSections.insert(at).inserted else {
          throw invalid(op, "section \(at) is updated twice")
        }
        sections[at].header = header
        sections[at].footer = footer
      default:
        continue
      }
    }
  }
}
