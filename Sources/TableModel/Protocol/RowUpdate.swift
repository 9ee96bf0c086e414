/// New content for a row's labels, as `update` sends it. A field left out (nil) stays as
/// it is; `detail` set to `.some(nil)` removes the detail.
public struct RowUpdate: Sendable, Hashable {
  public var text: String?
  public var detail: String??

  public init(text: String? = nil, detail: String?? = nil) {
    self.text = text
    self.detail = detail
  }

  /// Whether the edit changes nothing.
  public var isEmpty: Bool { text == nil && detail == nil }

  /// `row` with the edit made.
  public func applied(to row: Row) -> Row {
    var row = row
    if let text { row.text = text }
    if let detail { row.detail = detail }
    return row
  }
}

extension RowUpdate {
  /// The members `update` carries beside `list` and `row`: only the fields that change.
  var jsonMembers: [(key: String, value: JSONValue)] {
    var members: [(key: String, value: JSONValue)] = []
    if let text { members.append((WireKey.text, .string(text))) }
    if let detail { members.append((WireKey.detail, .string(detail))) }
    return members
  }

  /// Reads the fields of an `update`: absent means unchanged, a `null` detail removes it.
  init(reading fields: FieldReader) throws(ProtocolError) {
    let text: String? = fields.object[WireKey.text] == nil ? nil : try fields.string(WireKey.text)
    let detail: String?? =
      fields.object[WireKey.detail] == nil ? nil : .some(try fields.optionalString(WireKey.detail))
    self.init(text: text, detail: detail)
  }
}
