/// The work behind ``LoadedScreen/apply(_:)``: UIKit's batch-update order over sections
/// whose rows past their prefix are unknown. Every index is checked against the section's
/// full count before it is used.
struct PrefixDiffApplier {
  let ops: [DiffOp]
  var sections: [LoadedSection]
  /// The moved rows by the index of their op; nil for a row past its section's prefix.
  var movedRows: [Int: Row?] = [:]

  init(ops: [DiffOp], sections: [LoadedSection]) {
    self.ops = ops
    self.sections = sections
  }

  func misfit(_ op: Int, _ reason: String) -> ProtocolError {
    ProtocolError(.badMessage, "diff op \(op) (\(ops[op].name.rawValue)) does not fit: \(reason)")
  }

  mutating func apply() throws(ProtocolError) -> [LoadedSection] {
    let deleted = try deletedSections()
    try removeRows(sparing: deleted)
    sections = sections.indices.filter { !deleted.contains($0) }.map { sections[$0] }
    let inserted = try placeSections()
    try placeRows(sparing: inserted)
    try applyUpdates()
    return sections
  }

  func deletedSections() throws(ProtocolError) -> Set<Int> {
    var deleted: Set<Int> = []
    for (op, diffOp) in ops.enumerated() {
      guard case .deleteSection(let at) = diffOp else { continue }
      guard sections.indices.contains(at) else {
        throw misfit(op, "there are \(sections.count) sections")
      }
      guard deleted.insert(at).inserted else { throw misfit(op, "section \(at) is deleted twice") }
    }
    return deleted
  }

  mutating func removeRows(sparing deleted: Set<Int>) throws(ProtocolError) {
    var removals: [Int: [(row: Int, op: Int)]] = [:]
    for (op, diffOp) in ops.enumerated() {
      let at: IndexPath
      switch diffOp {
      case .delete(let path), .move(let path, _): at = path
      default: continue
      }
      guard sections.indices.contains(at.section), !deleted.contains(at.section) else {
        throw misfit(op, "no section \(at.section) to take a row from")
      }
      guard at.row < sections[at.section].count else {
        throw misfit(op, "section \(at.section) has \(sections[at.section].count) rows")
      }
      removals[at.section, default: []].append((at.row, op))
    }
    for section in removals.keys.sorted() {
      var previous: Int?
      for (row, op) in removals[section, default: []].sorted(by: {
        ($0.row, -$0.op) > ($1.row, -$1.op)
      }) {
        guard row != previous else { throw misfit(op, "[\(section),\(row)] is removed twice") }
        previous = row
        var taken: Row?
        if row < sections[section].rows.count { taken = sections[section].rows.remove(at: row) }
        sections[section].count -= 1
        if case .move = ops[op] { movedRows[op] = taken }
      }
    }
  }

  /// Returns the new indexes of the inserted sections.
  mutating func placeSections() throws(ProtocolError) -> Set<Int> {
    var placements: [(at: Int, op: Int)] = []
    for (op, diffOp) in ops.enumerated() {
      if case .insertSection(let at, _) = diffOp { placements.append((at, op)) }
    }
    var inserted: Set<Int> = []
    for (at, op) in placements.sorted(by: { $0.at < $1.at }) {
      guard case .insertSection(_, let section) = ops[op] else { continue }
      guard at <= sections.count, !inserted.contains(at) else {
        throw misfit(op, "section \(at) cannot be placed among \(sections.count)")
      }
      sections.insert(LoadedSection(section), at: at)
      inserted.insert(at)
    }
    return inserted
  }

  mutating func placeRows(sparing inserted: Set<Int>) throws(ProtocolError) {
    var placements: [(at: IndexPath, op: Int)] = []
    for (op, diffOp) in ops.enumerated() {
      switch diffOp {
      case .insert(let at, _), .move(_, let at): placements.append((at, op))
      default: continue
      }
    }
    var previous: IndexPath?
    for (at, op) in placements.sorted(by: { $0.at < $1.at }) {
      guard sections.indices.contains(at.section), !inserted.contains(at.section) else {
        throw misfit(op, "no section \(at.section) to place a row in")
      }
      guard at != previous, at.row <= sections[at.section].count else {
        throw misfit(op, "\(at) cannot be placed")
      }
      previous = at
      let row: Row?
      switch ops[op] {
      case .insert(_, let inserted): row = inserted
      default: row = movedRows[op] ?? nil
      }
      sections[at.section].count += 1
      let loaded = sections[at.section].rows.count
      if at.row < loaded {
        if let row {
          sections[at.section].rows.insert(row, at: at.row)
        } else {
          // A row the client never had lands inside the prefix: the prefix ends here.
          sections[at.section].rows.removeSubrange(at.row...)
        }
      } else if at.row == loaded, let row {
        sections[at.section].rows.append(row)
      }
    }
  }

  mutating func applyUpdates() throws(ProtocolError) {
    for (op, diffOp) in ops.enumerated() {
      switch diffOp {
      case .update(let at, let row):
        guard sections.indices.contains(at.section), at.row < sections[at.section].count else {
          throw misfit(op, "no row at \(at)")
        }
        let loaded = sections[at.section].rows.count
        if at.row < loaded {
          guard sections[at.section].rows[at.row].id == row.id else {
            throw misfit(op, "the row at \(at) is not \"\(row.id)\"")
          }
          sections[at.section].rows[at.row] = row
        } else if at.row == loaded {
          sections[at.section].rows.append(row)
        }
      case .updateSection(let at, let header, let footer):
        guard sections.indices.contains(at) else { throw misfit(op, "no section \(at)") }
        sections[at].header = header
        sections[at].footer = footer
      default:
        continue
      }
    }
  }
}
