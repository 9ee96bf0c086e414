import TableModel

/// One change a person asked for, addressed by stable ids within one list.
public enum TableEdit: Sendable, Hashable {
  /// A new row in `section`, after row `after` (nil: at the top of the section).
  case insert(section: String, after: String?, row: NewRow)
  /// Several rows at once; a row with a child list takes that list (and its subtree) along.
  case delete(rows: [String])
  case move(row: String, toSection: String, after: String?)
  /// New content; nil leaves a field as it is (`detail: .some(nil)` clears the detail;
  /// `values` replaces the row's custom cell values, checked against the list's cell).
  case update(
    row: String, text: String?, detail: String??, flagged: Bool? = nil, values: [String: String]? = nil)
  case setSwitch(row: String, isOn: Bool)
  /// A pick in a selection list: a single-selection list moves its checkmark here, a
  /// multiple-selection list toggles this row's.
  case select(row: String)
  /// The list's row action `action` (a swipe action or context menu item) on `row`: the
  /// data source performs it and says what changed.
  case action(row: String, action: String)

  /// What the change log calls it: the protocol command that asks for it.
  public var commandName: String {
    switch self {
    case .insert: return "insert"
    case .delete: return "delete"
    case .move: return "move"
    case .update: return "update"
    case .setSwitch: return "toggle"
    case .select: return "tap"
    case .action: return "action"
    }
  }
}
