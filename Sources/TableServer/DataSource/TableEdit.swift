import TableModel

/// One change a person asked for, addressed by stable ids within one list.
public enum TableEdit: Sendable, Hashable {
  /// What an ``update(row:text:detail:flagged:values:)`` does to the row's detail text.
  public enum DetailChange: Sendable, Hashable {
    /// The detail becomes this text.
    case set(String)
    /// The row shows no detail.
    case clear
  }

  /// A new row in `section`, after row `after` (nil: at the top of the section).
  case insert(section: String, after: String?, row: NewRow)
  /// Several rows at once; a row with a child list takes that list (and its subtree) along.
  case delete(rows: [String])
  /// `row` into `section`, after row `after` (nil: at the top), as `RowEdit.move(row:section:after:)`.
  case move(row: String, section: String, after: String?)
  /// New content; nil leaves a field as it is (`detail: .clear` removes the detail;
  /// `values` replaces the row's custom cell values, checked against the list's cell).
  case update(
    row: String, text: String?, detail: DetailChange?, flagged: Bool? = nil,
    values: [String: String]? = nil)
  /// The row's switch set on or off (the protocol's `toggle`).
  case toggle(row: String, isOn: Bool)
  /// A pick in a selection list (the protocol's `tap`): a single-selection list moves its
  /// checkmark here, a multiple-selection list toggles this row's.
  case tap(row: String)
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
    case .toggle: return "toggle"
    case .tap: return "tap"
    case .action: return "action"
    }
  }
}

extension TableEdit {
  @available(*, deprecated, renamed: "toggle(row:isOn:)")
  public static func setSwitch(row: String, isOn: Bool) -> TableEdit {
    .toggle(row: row, isOn: isOn)
  }

  @available(*, deprecated, renamed: "tap(row:)")
  public static func select(row: String) -> TableEdit { .tap(row: row) }

  @available(*, deprecated, renamed: "move(row:section:after:)")
  public static func move(row: String, toSection section: String, after: String?) -> TableEdit {
    .move(row: row, section: section, after: after)
  }
}

extension TableEdit.DetailChange {
  /// The protocol's and the store's spelling: nil leaves the detail, `.some(nil)` clears it.
  package init?(_ detail: String??) {
    switch detail {
    case .none: return nil
    case .some(.none): self = .clear
    case .some(.some(let text)): self = .set(text)
    }
  }

  /// The store's spelling of this change.
  package var text: String? {
    switch self {
    case .set(let text): return text
    case .clear: return nil
    }
  }
}
