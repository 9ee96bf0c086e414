extension LoadedScreen {
  /// Applies `diff` as docs/protocol.md's "Applying a diff" says, to sections that may
  /// hold only a prefix of their rows: a row placed inside a prefix that the client never
  /// had (moved in from past it) cuts the prefix there, and whatever happens past a prefix
  /// only changes the section's `count`.
  ///
  /// - Throws: `bad_message` naming the first op that does not fit the screen; the screen
  ///   is then unchanged and should be reloaded.
  public mutating func apply(_ diff: TableDiff) throws(ProtocolError) -> DiffOutcome {
    guard diff.list == list, diff.to > version else { return .skipped }
    guard diff.from == version else { return .gap }
    var applier = DiffApplier(ops: diff.ops, sections: sections)
    do {
      sections = try applier.apply()
    } catch {
      throw ProtocolError(.badMessage, error.description)
    }
    version = diff.to
    return .applied
  }

  /// Adds fetched rows to their section, when they belong to this screen's list and
  /// version and continue (or overlap) what the section holds. Returns whether they did.
  @discardableResult
  public mutating func add(_ fetched: RowsMessage) -> Bool {
    guard fetched.list == list, fetched.version == version,
      sections.indices.contains(fetched.section)
    else { return false }
    var section = sections[fetched.section]
    guard fetched.from >= 0, fetched.from <= section.rows.count else { return false }
    for (offset, row) in fetched.rows.enumerated() {
      let index = fetched.from + offset
      guard index < section.count else { break }
      if index < section.rows.count {
        section.rows[index] = row
      } else {
        section.rows.append(row)
      }
    }
    sections[fetched.section] = section
    return true
  }
}
