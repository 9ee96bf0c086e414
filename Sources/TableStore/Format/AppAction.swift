import TableModel

/// A row action of a data file's screen: what the page shows (`RowAction`) and what the
/// store does when someone chooses it (`docs/data-format.md`, "Row actions").
public struct AppAction: Sendable, Hashable {
  /// The built-in effects a data file may give an action.
  public enum Effect: String, Sendable, Hashable, CaseIterable {
    /// Deletes the row (as `delete`: the list must be editable, the row deletable).
    case delete
    /// Checks or unchecks the row (as a tap in a multiple-selection list).
    case check
    /// Flags or unflags the row (`flagged`, shown on the row to every viewer).
    case flag
  }

  public var action: RowAction
  public var effect: Effect

  /// The action's `effect` is set from `effect`: screens tell clients what it does, so
  /// that the page can show it before the server answers.
  public init(_ action: RowAction, effect: Effect) {
    self.action = action
    self.action.effect = RowAction.Effect(rawValue: effect.rawValue)
    self.effect = effect
  }

  /// The element of a screen's `actions` in the data format.
  public var json: JSONValue {
    var object = JSONObject()
    object["id"] = .string(action.id)
    object["title"] = .string(action.title)
    object["edge"] = .string(action.edge.rawValue)
    object["color"] = .string(action.color.rawValue)
    object["effect"] = .string(effect.rawValue)
    return .object(object)
  }
}

extension AppRow {
  /// The row with its flag set to `isFlagged`, its custom cell's `values` and the
  /// actions it offers.
  func flagged(_ isFlagged: Bool, values: [String: String], actions: [String]?) -> AppRow {
    var row = self
    row.isFlagged = isFlagged
    row.values = values
    row.actions = actions
    return row
  }
}
