import TableModel

extension SessionServer {
  /// `fetch`: a window of a long section, from the version every viewer has.
  mutating func fetchRows(
    of list: String, section sectionID: String, from: Int, count: Int, for connection: ConnectionID,
    effects: inout [ServerAction]
  ) throws(ProtocolError) {
    guard from >= 0, count >= 1 else {
      throw ProtocolError(.badMessage, "fetch needs from ≥ 0 and count ≥ 1")
    }
    let snapshot = try fetchedSnapshot(of: list, for: connection)
    let sectionIndex = try snapshot.sectionIndex(sectionID)
    let rows = snapshot.sections[sectionIndex].rows
    let start = min(from, rows.count)
    let end = min(rows.count, start + min(count, configuration.fetchLimit))
    effects.append(
      reply(
        .rows(
          RowsMessage(
            list: list, version: snapshot.version, section: sectionIndex, from: start,
            rows: Array(rows[start..<end]))),
        to: connection))
  }
}
