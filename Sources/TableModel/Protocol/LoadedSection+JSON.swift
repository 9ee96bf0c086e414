extension LoadedSection {
  /// The protocol's SECTION: `{"id","header","footer","count","rows"}`.
  public var jsonValue: JSONValue {
    var rowValues: [JSONValue] = []
    rowValues.reserveCapacity(rows.count)
    for row in rows { rowValues.append(row.jsonValue) }
    return .object(
      JSONObject(uniqueMembers: [
        (WireKey.id, .string(id)),
        (WireKey.header, .string(header)),
        (WireKey.footer, .string(footer)),
        (WireKey.count, .int(count)),
        (WireKey.rows, .array(rowValues)),
      ]))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let id = try fields.string(WireKey.id)
    let header = try fields.optionalString(WireKey.header)
    let footer = try fields.optionalString(WireKey.footer)
    let count = try fields.int(WireKey.count, atLeast: 0)
    let rows = try Row.rows(WireKey.rows, of: fields)
    guard rows.count <= count else {
      throw ProtocolError(
        .badMessage,
        "field \"\(fields.name(of: WireKey.rows))\" holds \(rows.count) rows, more than its count \(count)"
      )
    }
    self.init(id: id, header: header, footer: footer, count: count, rows: rows)
  }

  /// Reads the array `key` of SECTIONs.
  static func sections(_ key: String, of fields: FieldReader) throws(ProtocolError)
    -> [LoadedSection]
  {
    var sections: [LoadedSection] = []
    for sectionFields in try fields.objects(key) {
      sections.append(try LoadedSection(reading: sectionFields))
    }
    return sections
  }
}

extension Section {
  /// A SECTION with all its rows, as `insertSection` carries it.
  public var jsonValue: JSONValue { LoadedSection(self).jsonValue }

  /// Reads a SECTION that must hold all its rows.
  init(reading fields: FieldReader) throws(ProtocolError) {
    let loaded = try LoadedSection(reading: fields)
    guard loaded.isComplete else {
      throw ProtocolError(
        .badMessage,
        "field \"\(fields.name(of: WireKey.rows))\" must hold all \(loaded.count) rows of the section"
      )
    }
    self.init(id: loaded.id, header: loaded.header, footer: loaded.footer, rows: loaded.rows)
  }
}
