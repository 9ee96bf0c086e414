/// Row edits and prior rows as JSON: how the change log keeps them, so that a server
/// other than the one that made a change can publish it and rebuild older versions.
///
/// `{"op":"delete","row":"R1"}`, `{"op":"insert","row":ROW,"section":"S1","after":"R0"|null}`,
/// `{"op":"move","row":"R1","section":"S1","after":null}`, `{"op":"update","row":ROW}`;
/// a prior row is `{"row":ROW}` or `{"row":ROW,"section":"S1","after":"R0"|null}`.
extension RowEdit {
  public var jsonValue: JSONValue {
    switch self {
    case .delete(let id):
      return .object(JSONObject(uniqueMembers: [("op", .string("delete")), ("row", .string(id))]))
    case .insert(let row, let section, let after):
      return .object(
        JSONObject(uniqueMembers: [
          ("op", .string("insert")), ("row", row.jsonValue), ("section", .string(section)),
          ("after", .string(after)),
        ]))
    case .move(let id, let section, let after):
      return .object(
        JSONObject(uniqueMembers: [
          ("op", .string("move")), ("row", .string(id)), ("section", .string(section)),
          ("after", .string(after)),
        ]))
    case .update(let row):
      return .object(
        JSONObject(uniqueMembers: [("op", .string("update")), ("row", row.jsonValue)]))
    }
  }

  public init(json: JSONValue) throws(ProtocolError) {
    let fields = try FieldReader(json, at: "edit")
    switch try fields.string("op") {
    case "delete":
      self = .delete(row: try fields.string("row"))
    case "insert":
      self = .insert(
        try Row(reading: fields.object("row")), section: try fields.string("section"),
        after: try fields.optionalString("after"))
    case "move":
      self = .move(
        row: try fields.string("row"), section: try fields.string("section"),
        after: try fields.optionalString("after"))
    case "update":
      self = .update(try Row(reading: fields.object("row")))
    case let other:
      throw ProtocolError(.badMessage, "unknown row edit \"\(other)\"")
    }
  }

  /// A JSON array of edits, as text, its rows without the members that have their
  /// default value (about half a row's bytes: the log's rows are written at every commit).
  public static func serialized(_ edits: [RowEdit]) -> String {
    JSONValue.array(edits.map { LogRow.compact($0.jsonValue) }).serialized
  }

  /// Reads a JSON array of edits.
  public static func decode(_ text: String) throws(ProtocolError) -> [RowEdit] {
    try LogRow.decodeArray(text) { (element) throws(ProtocolError) in try RowEdit(json: element) }
  }
}

extension PriorRow {
  public var jsonValue: JSONValue {
    var members: [(String, JSONValue)] = [("row", row.jsonValue)]
    if let place {
      members.append(("section", .string(place.section)))
      members.append(("after", .string(place.after)))
    }
    return .object(JSONObject(uniqueMembers: members))
  }

  public init(json: JSONValue) throws(ProtocolError) {
    let fields = try FieldReader(json, at: "prior")
    let row = try Row(reading: fields.object("row"))
    if fields.optional("section") != nil {
      self.init(
        row: row,
        place: Place(
          section: try fields.string("section"), after: try fields.optionalString("after")))
    } else {
      self.init(row: row)
    }
  }

  /// A JSON array of prior rows, as text, compacted as ``RowEdit/serialized(_:)`` does.
  public static func serialized(_ rows: [PriorRow]) -> String {
    JSONValue.array(rows.map { LogRow.compact($0.jsonValue) }).serialized
  }

  /// Reads a JSON array of prior rows.
  public static func decode(_ text: String) throws(ProtocolError) -> [PriorRow] {
    try LogRow.decodeArray(text) { (element) throws(ProtocolError) in try PriorRow(json: element) }
  }
}

/// The `row` of a logged edit or prior row without the ROW members that hold their
/// default value, and back. Members it does not know are kept as they are, so a field
/// added to ROW later is logged in full.
enum LogRow {
  static let defaults: [(String, JSONValue)] = [
    (WireKey.style, .string("default")), (WireKey.detail, .null), (WireKey.image, .null),
    (WireKey.accessory, .string("none")), (WireKey.control, .null),
    (WireKey.editing, .string("none")), (WireKey.movable, .bool(false)),
    (WireKey.selectable, .bool(true)),
  ]

  static func compact(_ element: JSONValue) -> JSONValue {
    guard case .object(var object) = element, case .object(var row)? = object["row"] else {
      return element
    }
    for (key, value) in defaults where row[key] == value { row[key] = nil }
    object["row"] = .object(row)
    return .object(object)
  }

  /// Reads a JSON array, each element's row expanded.
  static func decodeArray<T>(
    _ text: String, _ decode: (JSONValue) throws(ProtocolError) -> T
  ) throws(ProtocolError) -> [T] {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: text)
    } catch {
      throw ProtocolError(error)
    }
    guard let array = json.arrayValue else { throw ProtocolError(.badMessage, "not an array") }
    var values: [T] = []
    for element in array { values.append(try decode(expand(element))) }
    return values
  }

  static func expand(_ element: JSONValue) -> JSONValue {
    guard case .object(var object) = element, case .object(var row)? = object["row"] else {
      return element
    }
    for (key, value) in defaults where row[key] == nil { row[key] = value }
    object["row"] = .object(row)
    return .object(object)
  }
}
