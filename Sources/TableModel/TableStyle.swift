/// The look of a whole table, as `UITableView.Style`.
public enum TableStyle: String, Sendable, Hashable, CaseIterable {
  /// Rows run edge to edge; section headers float at the top while their section scrolls.
  case plain
  /// Sections are separated groups on a grouped background.
  case grouped
  /// Grouped, with each group inset from the edges and its corners rounded.
  case insetGrouped
}
