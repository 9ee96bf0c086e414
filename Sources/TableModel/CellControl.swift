/// A control embedded in a row (the accessory view of a cell).
public enum CellControl: Sendable, Hashable {
  /// A `UISwitch` and its state.
  case `switch`(isOn: Bool)

  /// The switch state, when this is a switch.
  public var isOn: Bool? {
    switch self {
    case .switch(let isOn): return isOn
    }
  }
}
