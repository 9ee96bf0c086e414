/// How a list's rows are chosen: a plain list, or a selection list with checkmarks.
public enum SelectionMode: String, Sendable, Hashable, CaseIterable {
  case none
  /// Exactly one option is checked; picking another moves the checkmark.
  case single
  /// Each tap toggles the row's checkmark.
  case multiple
}
