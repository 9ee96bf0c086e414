import TableModel

/// Reading a list by what is on screen rather than whole: each section's first rows and
/// count, any window of a section, one row by id, and where a row stands. Each is a few
/// block-count sums (Store+Ordering), never a scan of the list's rows, so a 1,000,000-row
/// list costs what a 100-row one does.
extension Store {
  /// The list as `snapshot(of:)` gives it but with each section cut to its first
  /// `rowLimit` rows, and each section's whole count; nil for an indexed list (its
  /// sections are computed from all its rows: read it whole).
  public func prefix(of list: String, rowLimit: Int) throws(StoreError)
    -> (snapshot: TableSnapshot, counts: [Int])?
  {
    try read { () throws(StoreError) -> (snapshot: TableSnapshot, counts: [Int])? in
      let record = try requireList(list)
      guard !record.isIndexed else { return nil }
      var snapshot = record.emptySnapshot  // searchable too
      snapshot.actions = try actions(ofList: record.id).map(\.action)
      snapshot.cell = try cell(ofList: record.id)
      var counts: [Int] = []
      for section in try storedSections(of: record) {
        let rows = try window(
          ofSection: section.id, total: section.count, from: 0, count: rowLimit, list: record)
        snapshot.sections.append(
          Section(id: section.key, header: section.header, footer: section.footer, rows: rows))
        counts.append(section.count)
      }
      return (snapshot, counts)
    }
  }

  /// Visible rows `range` of section `section` (by index) of `list`, cut to the section.
  public func rows(of list: String, section: Int, range: Range<Int>) throws(StoreError) -> [Row] {
    try read { () throws(StoreError) -> [Row] in
      let record = try requireList(list)
      let sections = try storedSections(of: record)
      guard sections.indices.contains(section), !record.isIndexed else {
        throw .notFound("section \(section) of list \(list)")
      }
      let stored = sections[section]
      return try window(
        ofSection: stored.id, total: stored.count, from: max(0, range.lowerBound),
        count: range.count, list: record)
    }
  }

  /// The visible row `key` of `list` as the list shows it, or nil.
  public func row(_ key: String, in list: String) throws(StoreError) -> Row? {
    try read { () throws(StoreError) -> Row? in
      let record = try requireList(list)
      guard let row = try rowRecord(key: key), row.listID == record.id, row.isVisible else {
        return nil
      }
      return row.row(in: record)
    }
  }

  /// Where the visible row `key` stands in `list` (section index, row index), or nil when
  /// the list shows no such row. Not for indexed lists, whose sections are computed.
  public func indexPath(ofRow key: String, in list: String) throws(StoreError) -> TableIndexPath? {
    try read { () throws(StoreError) -> TableIndexPath? in
      let record = try requireList(list)
      guard !record.isIndexed, let row = try rowRecord(key: key), row.listID == record.id,
        row.isVisible
      else { return nil }
      guard
        let section = try fetchInt(
          """
          SELECT count(*) FROM section s JOIN section t ON t.id = ?2
          WHERE s.list_id = ?1 AND s.pos < t.pos
          """, record.id, row.sectionID),
        let before = try fetchInt(
          """
          SELECT coalesce(sum(b.count), 0) FROM block b JOIN block t ON t.id = ?2
          WHERE b.section_id = ?1 AND b.pos < t.pos
          """, row.sectionID, row.blockID),
        let inBlock = try fetchInt(
          "SELECT count(*) FROM row WHERE block_id = ? AND pos < ? AND visible", row.blockID,
          row.pos)
      else { return nil }
      return TableIndexPath(row: before + inBlock, section: section)
    }
  }
}
