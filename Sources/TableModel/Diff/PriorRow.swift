/// How a row was before a change touched it: its content, and for a row the change
/// deleted or moved, where it stood (the section and the visible row before it, nil when
/// it was first). With the change's ``RowEdit``s this takes the snapshot after the change
/// back to the one before (``TableSnapshot/undoing(_:prior:)``), which is how a server
/// rebuilds an older version from the change log to send a resuming client its diffs.
public struct PriorRow: Sendable, Hashable {
  public var row: Row
  /// Where the row stood, for a row that was deleted or moved; nil for one changed in place.
  public var place: Place?

  public struct Place: Sendable, Hashable {
    public var section: String
    public var after: String?

    public init(section: String, after: String?) {
      self.section = section
      self.after = after
    }
  }

  public init(row: Row, place: Place? = nil) {
    self.row = row
    self.place = place
  }
}

/// Why a change cannot be undone from what was recorded of it.
public struct UndoError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String
}

extension TableSnapshot {
  /// The snapshot before the change that `edits` describe, given how the rows it touched
  /// were before (`prior`). Rows the change inserted are removed; rows it deleted or moved
  /// go back to their places; rows it changed get their old content. Every row the edits
  /// delete, move or update must have a prior state.
  ///
  /// Rows are placed back each after its old neighbour: untouched rows keep their order
  /// across a change, so a placed row's neighbour is either untouched (present) or another
  /// placed row, put back first.
  public func undoing(_ edits: [RowEdit], prior: [PriorRow]) throws(UndoError) -> TableSnapshot {
    var priorByID: [String: PriorRow] = [:]
    for entry in prior where priorByID[entry.row.id] == nil { priorByID[entry.row.id] = entry }
    var inserted = Set<String>()
    for edit in edits {
      switch edit {
      case .insert(let row, _, _):
        if priorByID[row.id] == nil { inserted.insert(row.id) }
      case .delete(let id), .move(let id, _, _):
        guard priorByID[id]?.place != nil else {
          throw UndoError(description: "no prior place of row \(id)")
        }
      case .update(let row):
        guard priorByID[row.id] != nil || inserted.contains(row.id) else {
          throw UndoError(description: "no prior content of row \(row.id)")
        }
      }
    }
    var old = self
    let placed = prior.filter { $0.place != nil }
    let removed = inserted.union(placed.map(\.row.id))
    for index in old.sections.indices {
      old.sections[index].rows.removeAll { removed.contains($0.id) }
    }
    var waiting = placed
    while !waiting.isEmpty {
      var stillWaiting: [PriorRow] = []
      for entry in waiting {
        guard let place = entry.place,
          let section = old.sections.firstIndex(where: { $0.id == place.section })
        else { throw UndoError(description: "no section for row \(entry.row.id)") }
        if let after = place.after {
          guard let index = old.sections[section].rows.firstIndex(where: { $0.id == after })
          else {
            stillWaiting.append(entry)
            continue
          }
          old.sections[section].rows.insert(entry.row, at: index + 1)
        } else {
          old.sections[section].rows.insert(entry.row, at: 0)
        }
      }
      guard stillWaiting.count < waiting.count else {
        throw UndoError(
          description: "rows \(stillWaiting.map(\.row.id)) have no neighbour to go back after")
      }
      waiting = stillWaiting
    }
    for entry in prior where entry.place == nil {
      guard let path = old.indexPath(ofRow: entry.row.id) else {
        throw UndoError(description: "row \(entry.row.id) is not in the snapshot")
      }
      old[path] = entry.row
    }
    old.version = version - 1
    return old
  }
}
