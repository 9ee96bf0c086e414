/// The control a row shows in editing mode, as `UITableViewCell.EditingStyle`.
public enum EditingStyle: String, Sendable, Hashable, CaseIterable {
  case none
  /// A red minus control that reveals a Delete button.
  case delete
  /// A green plus control that inserts a row.
  case insert
}
