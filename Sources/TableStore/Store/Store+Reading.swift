import TableModel

extension Store {
  /// The id of the root list: the first screen of every session.
  /// Whether the database holds no data yet (a new file, or one never imported into).
  public var isEmpty: Bool {
    get throws(StoreError) {
      try read { () throws(StoreError) in
        try fetchInt("SELECT EXISTS (SELECT 1 FROM list)") == 0
      }
    }
  }

  public func rootList() throws(StoreError) -> String {
    guard
      let key = try fetchOne(
        "SELECT key FROM list WHERE parent_row IS NULL ORDER BY id LIMIT 1", [], { $0.string(0) })
    else { throw .notFound("root list (the database is empty; import a file)") }
    return key
  }

  public func listExists(_ list: String) throws(StoreError) -> Bool {
    try fetchInt("SELECT EXISTS (SELECT 1 FROM list WHERE key = ?)", list) == 1
  }

  /// The list's current version.
  public func version(of list: String) throws(StoreError) -> Int {
    try requireList(list).version
  }

  /// Everything the list shows now: every visible row (`showWhen` applied), checkmarks,
  /// derived details; an indexed list sorted into letter sections with `indexTitles`.
  public func snapshot(of list: String) throws(StoreError) -> TableSnapshot {
    try read { () throws(StoreError) in
      let record = try requireList(list)
      var snapshot = record.emptySnapshot
      snapshot.actions = try actions(ofList: record.id).map(\.action)
      snapshot.cell = try cell(ofList: record.id)
      let stored = try storedSections(of: record)
      var sections: [Section] = []
      for section in stored {
        let rows = try fetchAll(
          Store.rowSelect
            + " JOIN block b ON b.id = r.block_id WHERE b.section_id = ? AND r.visible ORDER BY b.pos, r.pos",
          [section.id], { makeRow($0, in: record) })
        sections.append(
          Section(id: section.key, header: section.header, footer: section.footer, rows: rows))
      }
      if record.isIndexed {
        let collation = record.collation
        snapshot.sections = collation.sections(list: record.key, rows: sections.flatMap(\.rows))
        snapshot.indexTitles = collation.titles
      } else {
        snapshot.sections = sections
      }
      return snapshot
    }
  }

  struct StoredSection {
    var id: Int
    var key: String
    var header: String?
    var footer: String?
    var count: Int
  }

  func storedSections(of list: ListRecord) throws(StoreError) -> [StoredSection] {
    try fetchAll(
      "SELECT id, key, header, footer, count FROM section WHERE list_id = ? ORDER BY pos", [list.id]
    ) {
      StoredSection(
        id: $0.int(0), key: $0.string(1), header: $0.optionalString(2),
        footer: $0.optionalString(3), count: $0.int(4))
    }
  }

  /// The number of visible rows of each section, in order (for a screen that sends only
  /// the first rows of a long section).
  public func sectionCounts(of list: String) throws(StoreError) -> [(section: String, count: Int)] {
    try read { () throws(StoreError) in
      let record = try requireList(list)
      if record.isIndexed {
        return try snapshot(of: list).sections.map { ($0.id, $0.rows.count) }
      }
      return try storedSections(of: record).map { ($0.key, $0.count) }
    }
  }

  /// Visible rows `from..<from+count` of a section (fewer at its end), read without
  /// scanning the list (see Store+Ordering.swift). An indexed list's letter sections are
  /// sorted in memory: indexed lists are meant for hundreds of rows, not millions.
  public func rows(of list: String, section: String, from: Int, count: Int) throws(StoreError)
    -> [Row]
  {
    precondition(from >= 0 && count >= 0, "bad window \(from), \(count)")
    return try read { () throws(StoreError) in
      let record = try requireList(list)
      if record.isIndexed {
        guard let found = try snapshot(of: list).sections.first(where: { $0.id == section }) else {
          throw .notFound("section \(section) in list \(list)")
        }
        return Array(found.rows.dropFirst(from).prefix(count))
      }
      guard
        let stored = try fetchOne(
          "SELECT id, count FROM section WHERE key = ? AND list_id = ?", [section, record.id],
          { ($0.int(0), $0.int(1)) })
      else { throw .notFound("section \(section) in list \(list)") }
      return try window(
        ofSection: stored.0, total: stored.1, from: from, count: count, list: record)
    }
  }

  /// The list the row drills into, if it has one.
  public func childList(ofRow row: String, in list: String) throws(StoreError) -> String? {
    try read { () throws(StoreError) in
      let record = try requireList(list)
      guard let row = try rowRecord(key: row), row.listID == record.id else {
        throw .notFound("row \(row) in list \(list)")
      }
      return try fetchOne("SELECT key FROM list WHERE parent_row = ?", [row.id], { $0.string(0) })
    }
  }

  /// The list and row that lead to `list`; nil for the root.
  public func parentRow(of list: String) throws(StoreError) -> (list: String, row: String)? {
    try read { () throws(StoreError) in
      let record = try requireList(list)
      guard let parent = record.parentRow else { return nil }
      return try fetchOne(
        "SELECT l.key, r.key FROM row r JOIN list l ON l.id = r.list_id WHERE r.id = ?", [parent],
        { ($0.string(0), $0.string(1)) })
    }
  }
}
