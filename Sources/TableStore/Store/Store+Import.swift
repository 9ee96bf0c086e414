import TableModel

extension Store {
  /// Replaces all of the app's data with a data file's text. An invalid file throws
  /// ``StoreError/invalidData(path:message:)`` naming the first problem, and the database
  /// is not touched; so does any failure while writing (one transaction).
  public func importJSON(_ text: String) throws(StoreError) {
    try importFile(AppFile(jsonText: text))
  }

  /// Replaces all of the app's data with `screen` after checking it as a file is checked.
  public func importApp(_ screen: AppScreen) throws(StoreError) {
    try importFile(AppFile(validating: screen))
  }

  /// Replaces all of the app's data with a checked data file, in one transaction.
  public func importFile(_ file: AppFile) throws(StoreError) {
    try replaceContents(with: file.root)
  }

  /// Replaces everything with a screen that has passed the format's checks. A list that
  /// existed before under the same id gets its old version plus one, so that a client
  /// still showing it sees a gap and reloads. Sessions are kept; the server pops them to
  /// the levels that still exist.
  func replaceContents(with root: AppScreen) throws(StoreError) {
    try write { () throws(StoreError) in
      let versions = Dictionary(
        try fetchAll("SELECT key, version FROM list", [], { ($0.string(0), $0.int(1)) }),
        uniquingKeysWith: { a, _ in a })
      try execute("DELETE FROM list WHERE parent_row IS NULL")
      try execute("DELETE FROM undo_step")  // an import is not undone, nor what came before
      var importer = Importer(
        store: self, versions: versions, reserved: Set(Importer.ids(in: root)),
        counter: try fetchInt("SELECT value FROM meta WHERE key = 'next_id'") ?? 1)
      _ = try importer.insert(root, parentRow: nil, inheriting: nil)
      try execute("UPDATE meta SET value = ? WHERE key = 'next_id'", importer.counter)
      try appendReplacedToLog()
    }
  }
}

/// Writes a checked screen tree, block by block.
struct Importer {
  let store: Store
  let versions: [String: Int]
  let reserved: Set<String>
  var counter: Int

  static func ids(in screen: AppScreen) -> [String] {
    var ids: [String] = []
    func visit(_ screen: AppScreen) {
      if let id = screen.id { ids.append(id) }
      for section in screen.sections {
        if let id = section.id { ids.append(id) }
        for row in section.rows {
          if let id = row.id { ids.append(id) }
          if let children = row.children { visit(children) }
        }
      }
    }
    visit(screen)
    return ids
  }

  mutating func key(_ given: String?, _ prefix: String) -> String {
    if let given { return given }
    while true {
      let key = "\(prefix)\(counter)"
      counter += 1
      if !reserved.contains(key) { return key }
    }
  }

  /// `inheriting`: the language of the screen that leads to this one (nil at the root),
  /// which this one's screens are in unless it says its own.
  mutating func insert(_ screen: AppScreen, parentRow: Int?, inheriting: String?)
    throws(StoreError) -> Int
  {
    let listKey = key(screen.id, "L")
    let language = screen.language ?? inheriting
    guard
      let listID = try store.fetchInt(
        """
        INSERT INTO list (key, parent_row, title, style, selection, editable, indexed, header, footer, version, searchable, language, screen_language)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
        """, listKey, parentRow, screen.title, screen.style.rawValue, screen.selection.rawValue,
        screen.isEditable, screen.isIndexed, screen.header, screen.footer,
        (versions[listKey] ?? 0) + 1, screen.isSearchable, screen.language, language)
    else { throw .notFound("list \(listKey)") }
    try store.insertActions(screen.actions, list: listID)
    try store.insertCell(screen.cell, list: listID)

    var sections = screen.sections
    if sections.isEmpty { sections = [AppSection()] }  // an indexed list given no sections
    let visible = Importer.visibility(of: sections)
    var rowIDs: [String: Int] = [:]
    var pending: [(row: Int, showWhen: ShowWhen)] = []
    var children: [(row: Int, screen: AppScreen)] = []
    for (sectionIndex, section) in sections.enumerated() {
      let visibleCount = section.rows.indices.reduce(0) { $0 + (visible[sectionIndex][$1] ? 1 : 0) }
      guard
        let sectionID = try store.fetchInt(
          "INSERT INTO section (key, list_id, pos, header, footer, count) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
          key(section.id, "S"), listID, sectionIndex, section.header, section.footer, visibleCount)
      else { throw .notFound("list \(listKey)") }
      var start = 0
      var blockIndex = 0
      while start < section.rows.count {
        let end = min(start + store.importBlockFill, section.rows.count)
        let blockVisible = (start..<end).reduce(0) { $0 + (visible[sectionIndex][$1] ? 1 : 0) }
        guard
          let blockID = try store.fetchInt(
            "INSERT INTO block (section_id, pos, count, size) VALUES (?, ?, ?, ?) RETURNING id",
            sectionID,
            blockIndex * Store.blockGap, blockVisible, end - start)
        else { throw .notFound("section #\(sectionID)") }
        for index in start..<end {
          let row = section.rows[index]
          let rowKey = key(row.id, "R")
          try store.execute(
            """
            INSERT INTO row (key, list_id, block_id, pos, text, detail, style, image, accessory, switch,
              checked, visible, lines, flagged, slot_values, actions)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, rowKey, listID, blockID, (index - start) * Store.rowGap, row.text, row.detail,
            row.style.rawValue, row.image, row.accessory?.rawValue, row.isOn, row.isChecked,
            visible[sectionIndex][index], row.lines, row.isFlagged,
            Store.storedValues(row.values), Store.storedActions(row.actions))
          let rowID = try store.database.lastInsertID()
          if row.id != nil { rowIDs[rowKey] = rowID }
          if let showWhen = row.showWhen { pending.append((rowID, showWhen)) }
          if let child = row.children { children.append((rowID, child)) }
        }
        start = end
        blockIndex += 1
      }
    }
    for (row, showWhen) in pending {
      guard let target = rowIDs[showWhen.row] else { throw .notFound("row \(showWhen.row)") }
      try store.execute(
        "UPDATE row SET show_when_row = ?, show_when_on = ? WHERE id = ?", target, showWhen.isOn,
        row)
    }
    for (row, child) in children {
      _ = try insert(child, parentRow: row, inheriting: language)
    }
    return listID
  }

  /// Which rows of a screen are visible, from its switches' states and `showWhen` rules.
  static func visibility(of sections: [AppSection]) -> [[Bool]] {
    var rules: [String: ShowWhen] = [:]
    var switches: [String: Bool] = [:]
    for section in sections {
      for row in section.rows {
        guard let id = row.id else { continue }
        if let rule = row.showWhen { rules[id] = rule }
        if let isOn = row.isOn { switches[id] = isOn }
      }
    }
    func isVisible(_ rule: ShowWhen?, depth: Int) -> Bool {
      guard let rule, depth < 64 else { return true }
      return switches[rule.row] == rule.isOn && isVisible(rules[rule.row], depth: depth + 1)
    }
    return sections.map { $0.rows.map { isVisible($0.showWhen, depth: 0) } }
  }
}
