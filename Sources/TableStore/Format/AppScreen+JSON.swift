import TableModel

extension AppScreen {
  /// The screen as the data format writes it: ids first, fields at their defaults left
  /// out, so that export → import → export gives the same text.
  public var json: JSONValue {
    var object = JSONObject()
    if let id { object["id"] = .string(id) }
    object["title"] = .string(title)
    if let language { object["language"] = .string(language) }
    if style != .plain { object["style"] = .string(style.rawValue) }
    if selection != .none { object["selection"] = .string(selection.rawValue) }
    if isEditable { object["editable"] = .bool(true) }
    if isIndexed { object["index"] = .bool(true) }
    if isSearchable { object["searchable"] = .bool(true) }
    if let header { object["header"] = .string(header) }
    if let footer { object["footer"] = .string(footer) }
    object["sections"] = .array(sections.map(\.json))
    if !actions.isEmpty { object["actions"] = .array(actions.map(\.json)) }
    if let cell { object["cell"] = cell.jsonValue }
    return .object(object)
  }
}

extension AppSection {
  public var json: JSONValue {
    var object = JSONObject()
    if let id { object["id"] = .string(id) }
    if let header { object["header"] = .string(header) }
    if let footer { object["footer"] = .string(footer) }
    object["rows"] = .array(rows.map(\.json))
    return .object(object)
  }
}

extension AppRow {
  public var json: JSONValue {
    var object = JSONObject()
    if let id { object["id"] = .string(id) }
    object["text"] = .string(text)
    if let detail { object["detail"] = .string(detail) }
    if style != .default { object["style"] = .string(style.rawValue) }
    if lines != 1 { object["lines"] = .int(lines) }
    if let image { object["image"] = .string(image) }
    if let accessory { object["accessory"] = .string(accessory.rawValue) }
    if let isOn { object["switch"] = .bool(isOn) }
    if isChecked { object["checked"] = .bool(true) }
    if isFlagged { object["flagged"] = .bool(true) }
    if !values.isEmpty { object["values"] = Row.valuesJSON(values) }
    if let actions { object["actions"] = .array(actions.map { .string($0) }) }
    if let showWhen {
      object["showWhen"] = .object(["row": .string(showWhen.row), "on": .bool(showWhen.isOn)])
    }
    if let children { object["children"] = children.json }
    return .object(object)
  }
}

extension AppScreen {
  /// Reads and checks a data file: every rule of the format. The first problem throws
  /// ``StoreError/invalidData(path:message:)`` with its JSON path
  /// (`sections[2].rows[5].style: unknown style "value3"`).
  public init(json: JSONValue) throws(StoreError) {
    var decoder = AppDecoder()
    self = try decoder.screen(json, at: "")
  }

  /// Parses and checks the text of a data file.
  public init(jsonText: String) throws(StoreError) {
    try self.init(
      parsing: { () throws(JSONSyntaxError) in try JSONValue(parsing: jsonText) },
      locating: { $0.described(in: jsonText.utf8) })
  }

  /// Parses and checks a data file's bytes, which must be UTF-8 (checked once, as they are
  /// parsed).
  public init(jsonBytes: some Collection<UInt8>) throws(StoreError) {
    try self.init(
      parsing: { () throws(JSONSyntaxError) in try JSONValue(parsing: jsonBytes) },
      locating: { $0.described(in: jsonBytes) })
  }

  /// `locating` describes a syntax error with its line and column.
  private init(
    parsing parse: () throws(JSONSyntaxError) -> JSONValue,
    locating: (JSONSyntaxError) -> String
  ) throws(StoreError) {
    let value: JSONValue
    do {
      value = try parse()
    } catch {
      throw .invalidData(path: "", message: "not JSON: \(locating(error))")
    }
    try self.init(json: value)
  }
}
