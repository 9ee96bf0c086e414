import TableModel

extension LoadedScreen {
  /// The screen as plain text, one line per row, for a terminal or a test to read:
  ///
  /// ```
  /// General  (back: Settings; L7 v12; grouped; editing)
  ///   [S1] NETWORK
  ///     R1 | value1 | Wi-Fi | Home | disclosure
  ///     R2 | default | Airplane Mode | - | none | switch off
  ///     R3 | default | Ada | - | none | flagged | sender=Ada; time=9:41
  ///     … 248 rows not loaded (fetch)
  ///   footer: Your settings
  /// ```
  public var text: String {
    let screen = self
    var notes = [
      screen.backTitle.map { "back: \($0)" } ?? "root", "\(screen.list) v\(screen.version)",
      screen.style.rawValue,
    ]
    if screen.isEditing { notes.append("editing") }
    if screen.selection != .none { notes.append("selection \(screen.selection.rawValue)") }
    var lines = ["\(screen.title)  (\(notes.joined(separator: "; ")))"]
    if let header = screen.header { lines.append("  header: \(header)") }
    for section in screen.sections {
      lines.append("  [\(section.id)]" + (section.header.map { " \($0)" } ?? ""))
      for row in section.rows {
        lines.append("    " + Self.describe(row, isEditing: screen.isEditing))
      }
      if !section.isComplete {
        lines.append("    … \(section.count - section.rows.count) rows not loaded (fetch)")
      }
      if section.count == 0 { lines.append("    (no rows)") }
      if let footer = section.footer { lines.append("    footer: \(footer)") }
    }
    if let footer = screen.footer { lines.append("  footer: \(footer)") }
    return lines.joined(separator: "\n")
  }

  static func describe(_ row: Row, isEditing: Bool) -> String {
    var columns = [row.id, row.style.rawValue, row.text, row.detail ?? "-", row.accessory.rawValue]
    if let isOn = row.control?.isOn { columns.append(isOn ? "switch on" : "switch off") }
    if isEditing {
      if row.editingStyle != .none { columns.append("edit \(row.editingStyle.rawValue)") }
      if row.isMovable { columns.append("movable") }
    }
    if !row.isSelectable { columns.append("not selectable") }
    if row.isFlagged { columns.append("flagged") }
    if !row.values.isEmpty {
      columns.append(
        row.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
          separator: "; "))
    }
    return columns.joined(separator: " | ")
  }
}
