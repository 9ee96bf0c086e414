/// New content for a row, as `update` sends it: its labels, its flag, its custom cell's
/// values. A field left out (nil) stays as it is; `detail` set to `.some(nil)` removes the
/// detail; `values` replaces all of the row's values (`[:]`: none).
public struct RowUpdate: Sendable, Hashable {
  public var text: String?
  public var detail: String??
  public var flagged: Bool?
  public var values: [String: String]?

  public init(
    text: String? = nil, detail: String?? = nil, flagged: Bool? = nil,
    values: [String: String]? = nil
  ) {
    self.text = text
    self.detail = detail
    self.flagged = flagged
    self.values = values
  }

  /// Whether the edit changes nothing.
  public var isEmpty: Bool { text == nil && detail == nil && flagged == nil && values == nil }

  /// `row` with the edit made.
  public func applied(to row: Row) -> Row {
    var row = row
    if let text { row.text = text }
    if let detail { row.detail = detail }
    if let flagged { row.isFlagged = flagged }
    if let values { row.values = values }
    return row
  }
}

extension RowUpdate {
  /// The members `update` carries beside `list` and `row`: only the fields that change.
  var jsonMembers: [(key: String, value: JSONValue)] {
    var members: [(key: String, value: JSONValue)] = []
    if let text { members.append((WireKey.text, .string(text))) }
    if let detail { members.append((WireKey.detail, .string(detail))) }
    if let flagged { members.append((WireKey.flagged, .bool(flagged))) }
    if let values { members.append((WireKey.values, Row.valuesJSON(values))) }
    return members
  }

  /// Reads the fields of an `update`: absent means unchanged, a `null` detail removes it.
  init(reading fields: FieldReader) throws(ProtocolError) {
    let text: String? = fields.object[WireKey.text] == nil ? nil : try fields.string(WireKey.text)
    let detail: String?? =
      fields.object[WireKey.detail] == nil ? nil : .some(try fields.optionalString(WireKey.detail))
    let flagged: Bool? =
      fields.optional(WireKey.flagged) == nil ? nil : try fields.bool(WireKey.flagged)
    var values: [String: String]?
    if fields.optional(WireKey.values) != nil {
      let object = try fields.object(WireKey.values)
      values = [:]
      for key in object.object.keys { values?[key] = try object.string(key) }
    }
    self.init(text: text, detail: detail, flagged: flagged, values: values)
  }
}
