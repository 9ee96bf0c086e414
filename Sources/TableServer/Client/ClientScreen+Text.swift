import TableModel

extension ClientScreen {
  /// The screen as plain text, one line per row, for a terminal or a test to read:
  ///
  /// ```
  /// General  (back: Settings; L7 v12; grouped; editing)
  ///   [S1] NETWORK
  ///     R1 | value1 | Wi-Fi | Home | disclosure
  ///     R2 | default | Airplane Mode | - | none | switch off
  ///     … 248 rows not loaded (fetch)
  ///   footer: Your settings
  /// ```
  public var text: String {
    var notes = [backTitle.map { "back: \($0)" } ?? "root", "\(list) v\(version)", style.rawValue]
    if isEditing { notes.append("editing") }
    if selection != .none { notes.append("selection \(selection.rawValue)") }
    var lines = ["\(title)  (\(notes.joined(separator: "; ")))"]
    if let header { lines.append("  header: \(header)") }
    for section in sections {
      lines.append("  [\(section.id)]" + (section.header.map { " \($0)" } ?? ""))
      var emptySlots = 0
      for row in section.rows {
        if row.isEmptySlot {
          emptySlots += 1
          continue
        }
        if emptySlots > 0 { lines.append("    … \(emptySlots) rows not loaded (fetch)") }
        emptySlots = 0
        lines.append("    " + Self.describe(row, isEditing: isEditing))
      }
      if emptySlots > 0 { lines.append("    … \(emptySlots) rows not loaded (fetch)") }
      if section.rows.isEmpty { lines.append("    (no rows)") }
      if let footer = section.footer { lines.append("    footer: \(footer)") }
    }
    if let footer { lines.append("  footer: \(footer)") }
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
    return columns.joined(separator: " | ")
  }
}
