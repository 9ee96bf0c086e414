/// Why a diff could not be computed from two snapshots, or could not be applied to one.
public enum DiffError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Two rows of one list share this id (ids are unique across all sections of a list).
  case duplicateRowID(String)
  /// Two sections of one list share this id.
  case duplicateSectionID(String)
  /// An op that does not fit the sections it is applied to: an index out of range, a
  /// position removed or placed twice, a row op inside a section that is itself deleted
  /// or inserted, an update that changes a row's id.
  case invalidOp(DiffOp, reason: String)

  public var description: String {
    switch self {
    case .duplicateRowID(let id): "duplicate row id \"\(id)\""
    case .duplicateSectionID(let id): "duplicate section id \"\(id)\""
    case .invalidOp(let op, let reason): "\(op) does not fit: \(reason)"
    }
  }
}
