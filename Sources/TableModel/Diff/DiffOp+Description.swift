/// Ops print as the wire protocol names them, without row content: `move [0,3] → [2,0]`.
extension DiffOp: CustomStringConvertible {
  public var description: String {
    switch self {
    case .delete(let at): "delete \(at)"
    case .insert(let at, let row): "insert \(at) \"\(row.id)\""
    case .move(let from, let to): "move \(from) → \(to)"
    case .update(let at, let row): "update \(at) \"\(row.id)\""
    case .deleteSection(let at): "deleteSection \(at)"
    case .insertSection(let at, let section): "insertSection \(at) \"\(section.id)\""
    case .updateSection(let at, _, _): "updateSection \(at)"
    }
  }
}
