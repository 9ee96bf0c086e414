import TableModel

/// Looking rows and sections up by id, and what a list permits (`canEditRowAt`, `canMoveRowAt`).
extension TableSnapshot {
  func row(_ id: String) throws(ProtocolError) -> Row {
    guard let indexPath = indexPath(ofRow: id) else {
      throw ProtocolError(.notFound, "no row \(id) in list \(list)")
    }
    return self[indexPath]
  }

  func sectionIndex(_ id: String) throws(ProtocolError) -> Int {
    guard let index = sections.firstIndex(where: { $0.id == id }) else {
      throw ProtocolError(.notFound, "no section \(id) in list \(list)")
    }
    return index
  }

  /// Throws the error a client is told when this list does not permit `edit`.
  func check(_ edit: TableEdit) throws(ProtocolError) {
    switch edit {
    case .insert(let section, let after, _):
      try requireEditable()
      let sectionIndex = try sectionIndex(section)
      if let after, !sections[sectionIndex].rows.contains(where: { $0.id == after }) {
        throw ProtocolError(.notFound, "no row \(after) in section \(section) of list \(list)")
      }
    case .delete(let rows):
      try requireEditable()
      guard !rows.isEmpty else { throw ProtocolError(.badMessage, "no rows to delete") }
      for id in rows where try row(id).editingStyle != .delete {
        throw ProtocolError(.notAllowed, "row \(id) cannot be deleted")
      }
    case .move(let id, let section, let after):
      try requireEditable()
      guard try row(id).isMovable else {
        throw ProtocolError(.notAllowed, "row \(id) cannot be moved")
      }
      let sectionIndex = try sectionIndex(section)
      if let after {
        guard after != id else {
          throw ProtocolError(.badMessage, "a row cannot be moved after itself")
        }
        guard sections[sectionIndex].rows.contains(where: { $0.id == after }) else {
          throw ProtocolError(.notFound, "no row \(after) in section \(section) of list \(list)")
        }
      }
    case .update(let id, _, _, _, let values):
      try requireEditable()
      _ = try row(id)
      guard let values else { return }
      guard let cell else {
        throw ProtocolError(.badMessage, "field \"values\": list \(list) has no custom cell")
      }
      if let (slot, message) = cell.problem(with: values) {
        throw ProtocolError(.badMessage, "field \"values.\(slot)\": \(message)")
      }
    case .toggle(let id, _):
      guard try row(id).control?.isOn != nil else {
        throw ProtocolError(.notAllowed, "row \(id) has no switch")
      }
    case .tap(let id):
      guard selection != .none else {
        throw ProtocolError(.notAllowed, "list \(list) is not a selection list")
      }
      _ = try row(id)
    case .action(let id, let action):
      let offered = try row(id).actions
      guard actions.contains(where: { $0.id == action }) else {
        throw ProtocolError(.notFound, "no action \(action) in list \(list)")
      }
      if let offered, !offered.contains(action) {
        throw ProtocolError(.notAllowed, "row \(id) does not offer action \(action)")
      }
    }
  }

  private func requireEditable() throws(ProtocolError) {
    guard isEditable else { throw ProtocolError(.notAllowed, "“\(title)” cannot be edited") }
  }
}
