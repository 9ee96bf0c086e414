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
