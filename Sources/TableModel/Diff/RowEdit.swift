/// One change to a list's visible rows, by id: what the store reports a command did.
///
/// Positions are given as "after this row" (nil: first in the section), so that a list of
/// edits applies in order to the snapshot it was made against. The server applies them to
/// its snapshot and diffs old against new to get the protocol's index-based ops.
public enum RowEdit: Sendable, Hashable {
  case delete(row: String)
  case insert(Row, section: String, after: String?)
  case move(row: String, section: String, after: String?)
  /// Same id, new content.
  case update(Row)
}

/// Why a ``RowEdit`` does not fit the snapshot it was applied to.
public enum RowEditError: Error, Sendable, Hashable, CustomStringConvertible {
  case rowNotFound(String)
  case sectionNotFound(String)
  case duplicateRow(String)

  public var description: String {
    switch self {
    case .rowNotFound(let id): return "no row \(id) in the snapshot"
    case .sectionNotFound(let id): return "no section \(id) in the snapshot"
    case .duplicateRow(let id): return "row \(id) is already in the snapshot"
    }
  }
}

extension TableSnapshot {
  /// The index path of the row with `id`, if it is in the snapshot.
  public func indexPath(ofRow id: String) -> TableIndexPath? {
    for (sectionIndex, section) in sections.enumerated() {
      if let rowIndex = section.rows.firstIndex(where: { $0.id == id }) {
        return TableIndexPath(row: rowIndex, section: sectionIndex)
      }
    }
    return nil
  }

  /// Applies `edits` in order. On an error the snapshot is left unchanged.
  public mutating func apply(_ edits: [RowEdit]) throws(RowEditError) {
    var copy = self
    for edit in edits { try copy.apply(edit) }
    self = copy
  }

  private mutating func apply(_ edit: RowEdit) throws(RowEditError) {
    switch edit {
    case .delete(let id):
      guard let path = indexPath(ofRow: id) else { throw .rowNotFound(id) }
      sections[path.section].rows.remove(at: path.row)
    case .insert(let row, let section, let after):
      guard indexPath(ofRow: row.id) == nil else { throw .duplicateRow(row.id) }
      try place(row, section: section, after: after)
    case .move(let id, let section, let after):
      guard let path = indexPath(ofRow: id) else { throw .rowNotFound(id) }
      let row = sections[path.section].rows.remove(at: path.row)
      do {
        try place(row, section: section, after: after)
      } catch {
        sections[path.section].rows.insert(row, at: path.row)
        throw error
      }
    case .update(let row):
      guard let path = indexPath(ofRow: row.id) else { throw .rowNotFound(row.id) }
      self[path] = row
    }
  }

  private mutating func place(_ row: Row, section: String, after: String?) throws(RowEditError) {
    guard let sectionIndex = sections.firstIndex(where: { $0.id == section }) else {
      throw .sectionNotFound(section)
    }
    var rowIndex = 0
    if let after {
      guard let afterIndex = sections[sectionIndex].rows.firstIndex(where: { $0.id == after })
      else {
        throw .rowNotFound(after)
      }
      rowIndex = afterIndex + 1
    }
    sections[sectionIndex].rows.insert(row, at: rowIndex)
  }
}
