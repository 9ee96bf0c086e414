import TableModel

extension Store {
  /// The rows of `list` that match `query` (case- and accent-insensitive, on text and
  /// detail), at the list's current version: `UISearchController`'s results, filtered in
  /// SQL over the whole list. Each row's folded text is kept in `row.search`, so a search
  /// reads the list's rows once and builds only those that match.
  public func search(_ query: SearchQuery, in list: String) throws(StoreError) -> TableSnapshot {
    try read { () throws(StoreError) in
      let record = try requireList(list)
      var results = record.emptySnapshot
      // The matches are found by scanning the list's rows in file order, reading each
      // one's folded column once; only they are then joined, ordered and built.
      let match = String(repeating: " AND instr(search, ?) > 0", count: query.terms.count)
      var sections: [Section] = []
      for section in try storedSections(of: record) {
        let rows = try fetchAll(
          Store.rowSelect
            + " JOIN block b ON b.id = r.block_id WHERE b.section_id = ? AND r.id IN"
            + " (SELECT id FROM row WHERE list_id = ? AND visible" + match + ")"
            + " ORDER BY b.pos, r.pos",
          [section.id, record.id] + query.terms, { makeRow($0, in: record) })
        guard !rows.isEmpty else { continue }
        sections.append(
          Section(id: section.key, header: section.header, footer: section.footer, rows: rows))
      }
      results.sections =
        record.isIndexed
        ? record.collation.sections(list: record.key, rows: sections.flatMap(\.rows)).filter {
          !$0.rows.isEmpty
        } : sections
      return results
    }
  }
}
