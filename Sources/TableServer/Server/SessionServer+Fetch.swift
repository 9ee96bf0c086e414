import TableModel

extension SessionServer {
  /// `fetch`: a window of a long section, from the version every viewer has. None while
  /// the session's search results are being read: their `screen` follows.
  mutating func fetchRows(
    of list: String, section sectionID: String, from: Int, count: Int, for connection: ConnectionID,
    effects: inout [ServerAction]
  ) throws(ProtocolError) {
    guard from >= 0, count >= 1 else {
      throw ProtocolError(.badMessage, "fetch needs from ≥ 0 and count ≥ 1")
    }
    guard let (snapshot, counts) = try fetchedState(of: list, for: connection) else { return }
    let sectionIndex = try snapshot.sectionIndex(sectionID)
    let rows = snapshot.sections[sectionIndex].rows
    let total = counts?[sectionIndex] ?? rows.count
    let start = min(from, total)
    let end = min(total, start + min(count, configuration.fetchLimit))
    let window: [Row]
    if counts != nil, end > rows.count, start < end {
      // A long list held as its first rows: the window is read from the data source.
      window = try dataSource.rows(of: list, section: sectionIndex, range: start..<end)
    } else {
      window = Array(rows[start..<end])
    }
    effects.append(
      reply(
        .rows(
          RowsMessage(
            list: list, version: snapshot.version, section: sectionIndex, from: start,
            rows: window)),
        to: connection))
  }
}
