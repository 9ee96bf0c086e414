/// The content of a row a client inserts (the `row` of an `insert` command): only what a
/// person types. The server gives it its id, and its style when it has none.
///
/// Not the data file's row (`AppRow` in TableStore), on purpose: that one also carries an
/// id, an image, an accessory, a switch, a checkmark, a `showWhen` rule and a child
/// screen, all of which a client may not set, and its defaults differ (a data file's row
/// is `default` style; a client's takes its neighbour's).
public struct NewRow: Sendable, Hashable {
  public var text: String
  public var detail: String?
  /// Extension: the cell style; nil lets the server choose (the list's usual style).
  public var style: CellStyle?

  public init(text: String, detail: String? = nil, style: CellStyle? = nil) {
    self.text = text
    self.detail = detail
    self.style = style
  }
}

extension NewRow {
  /// `{"text":..,"detail":..}`, and `style` only when set.
  public var jsonValue: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      (WireKey.text, .string(text)),
      (WireKey.detail, .string(detail)),
    ]
    if let style { members.append((WireKey.style, .string(style.rawValue))) }
    return .object(JSONObject(uniqueMembers: members))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let style: CellStyle?
    if fields.optional(WireKey.style) != nil {
      style = try fields.name(WireKey.style, as: CellStyle.self)
    } else {
      style = nil
    }
    self.init(
      text: try fields.string(WireKey.text), detail: try fields.optionalString(WireKey.detail),
      style: style)
  }
}
