/// The `rows` message, the answer to `fetch`: rows `from..<from + rows.count` of one
/// section of a list at one version.
public struct RowsMessage: Sendable, Hashable {
  public var list: String
  public var version: Int
  /// The section's index at `version`.
  public var section: Int
  /// The index of the first row.
  public var from: Int
  public var rows: [Row]

  public init(list: String, version: Int, section: Int, from: Int, rows: [Row]) {
    self.list = list
    self.version = version
    self.section = section
    self.from = from
    self.rows = rows
  }
}

extension RowsMessage {
  var jsonMembers: [(key: String, value: JSONValue)] {
    var rowValues: [JSONValue] = []
    rowValues.reserveCapacity(rows.count)
    for row in rows { rowValues.append(row.jsonValue) }
    return [
      (WireKey.list, .string(list)),
      (WireKey.version, .int(version)),
      (WireKey.section, .int(section)),
      (WireKey.from, .int(from)),
      (WireKey.rows, .array(rowValues)),
    ]
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    self.init(
      list: try fields.string(WireKey.list),
      version: try fields.int(WireKey.version),
      section: try fields.int(WireKey.section, atLeast: 0),
      from: try fields.int(WireKey.from, atLeast: 0),
      rows: try Row.rows(WireKey.rows, of: fields))
  }
}
