import TableModel

extension Store {
  /// All of the app's data as a data file's root screen, every id included: importing it
  /// gives back the same data, and exporting again the same file.
  public func exportApp() throws(StoreError) -> AppScreen {
    try read { () throws(StoreError) in
      let root = try requireList(try rootList())
      return try exportScreen(root)
    }
  }

  /// The data file's text (indented JSON).
  public func exportJSON() throws(StoreError) -> String {
    try exportApp().json.prettyPrinted + "\n"
  }

  func exportScreen(_ list: ListRecord) throws(StoreError) -> AppScreen {
    var screen = AppScreen(
      id: list.key, title: list.title, style: list.style, selection: list.selection,
      isEditable: list.isEditable, isIndexed: list.isIndexed, header: list.header,
      footer: list.footer, isSearchable: list.isSearchable)
    screen.actions = try actions(ofList: list.id)
    screen.cell = try cell(ofList: list.id)
    screen.language = list.ownLanguage
    for section in try storedSections(of: list) {
      let rows = try fetchAll(
        """
        SELECT r.key, r.text, r.detail, r.style, r.image, r.accessory, r.switch, r.checked,
          w.key, r.show_when_on, c.id, r.lines, r.flagged, r.slot_values, r.actions
        FROM block b JOIN row r ON r.block_id = b.id
        LEFT JOIN row w ON w.id = r.show_when_row
        LEFT JOIN list c ON c.parent_row = r.id
        WHERE b.section_id = ? ORDER BY b.pos, r.pos
        """, [section.id]
      ) { s in
        (
          row: AppRow(
            id: s.string(0), text: s.string(1), detail: s.optionalString(2),
            style: CellStyle(rawValue: s.string(3)) ?? .default, image: s.optionalString(4),
            accessory: s.optionalString(5).flatMap(AccessoryType.init(rawValue:)),
            isOn: s.optionalBool(6),
            isChecked: s.bool(7),
            showWhen: s.optionalString(8).map { ShowWhen(row: $0, isOn: s.bool(9)) },
            lines: s.int(11)
          ).flagged(
            s.bool(12), values: Store.values(stored: s.optionalString(13)),
            actions: Store.actions(stored: s.optionalString(14))),
          child: s.optionalInt(10)
        )
      }
      var exported = AppSection(id: section.key, header: section.header, footer: section.footer)
      exported.rows.reserveCapacity(rows.count)
      for (row, child) in rows {
        var row = row
        if let child, let childList = try listRecord(id: child) {
          row.children = try exportScreen(childList)
        }
        exported.rows.append(row)
      }
      screen.sections.append(exported)
    }
    return screen
  }
}
