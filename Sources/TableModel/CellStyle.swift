/// The layout of a row's labels, as `UITableViewCell.CellStyle`.
public enum CellStyle: String, Sendable, Hashable, CaseIterable {
  /// One left-aligned text label and an optional image.
  case `default`
  /// A text label with a smaller gray detail label below it, and an optional image.
  case subtitle
  /// A left-aligned text label and a right-aligned gray detail label (Settings).
  case value1
  /// A right-aligned blue label beside a left-aligned detail label (Contacts); no image.
  case value2

  /// Whether the style shows a row's image (value2 has no image view).
  public var showsImage: Bool { self != .value2 }
}
