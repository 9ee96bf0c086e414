/// Reads the fields of one object of a message, and names a field that is missing or of
/// the wrong type by its path from the message (`"ops[2].row.text"`) in a `bad_message`.
///
/// A field that is absent and one that is `null` mean the same: "no value".
///
/// Not shared with the data file's reader (`AppDecoder` in TableStore), on purpose: a
/// message's unknown fields are ignored (protocol-core: peers ignore what they do not
/// know) and its errors are `bad_message`s, while a data file's unknown fields are refused
/// and its errors name the JSON path and what was found there, for a person fixing a file.
/// What the two share is a few lines of type checks each.
struct FieldReader {
  let object: JSONObject
  /// The path of this object from the message, empty for the message itself.
  let path: String

  /// Reads a whole message, which must be an object.
  init(message: JSONValue) throws(ProtocolError) {
    guard case .object(let object) = message else {
      throw ProtocolError(.badMessage, "a message must be a JSON object, not \(message.kindName)")
    }
    self.object = object
    self.path = ""
  }

  /// Reads `value`, found at `path`, which must be an object.
  init(_ value: JSONValue, at path: String) throws(ProtocolError) {
    guard case .object(let object) = value else { throw FieldReader.mistyped(path, "an object") }
    self.object = object
    self.path = path
  }

  func name(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  static func missing(_ name: String) -> ProtocolError {
    ProtocolError(.badMessage, "missing field \"\(name)\"")
  }

  static func mistyped(_ name: String, _ expected: String) -> ProtocolError {
    ProtocolError(.badMessage, "field \"\(name)\" must be \(expected)")
  }

  /// The value of `key`, nil when it is absent or null.
  func optional(_ key: String) -> JSONValue? {
    guard let value = object[key], value != .null else { return nil }
    return value
  }

  /// `expected` is only worked out for the error message.
  func required(_ key: String, _ expected: @autoclosure () -> String) throws(ProtocolError)
    -> JSONValue
  {
    guard let value = object[key] else { throw FieldReader.missing(name(of: key)) }
    if value == .null { throw FieldReader.mistyped(name(of: key), expected()) }
    return value
  }

  func string(_ key: String) throws(ProtocolError) -> String {
    let value = try required(key, "a string")
    guard case .string(let string) = value else {
      throw FieldReader.mistyped(name(of: key), "a string")
    }
    return string
  }

  func optionalString(_ key: String) throws(ProtocolError) -> String? {
    guard let value = optional(key) else { return nil }
    guard case .string(let string) = value else {
      throw FieldReader.mistyped(name(of: key), "a string or null")
    }
    return string
  }

  func bool(_ key: String) throws(ProtocolError) -> Bool {
    guard let bool = try required(key, "true or false").boolValue else {
      throw FieldReader.mistyped(name(of: key), "true or false")
    }
    return bool
  }

  func int(_ key: String) throws(ProtocolError) -> Int {
    guard let int = try required(key, "an integer").intValue else {
      throw FieldReader.mistyped(name(of: key), "an integer")
    }
    return int
  }

  func optionalInt(_ key: String) throws(ProtocolError) -> Int? {
    guard let value = optional(key) else { return nil }
    guard let int = value.intValue else {
      throw FieldReader.mistyped(name(of: key), "an integer or null")
    }
    return int
  }

  /// An index or a count: an integer of at least `minimum`.
  func int(_ key: String, atLeast minimum: Int) throws(ProtocolError) -> Int {
    func expected() -> String {
      minimum == 0 ? "a non-negative integer" : "an integer of at least \(minimum)"
    }
    guard let int = try required(key, expected()).intValue, int >= minimum else {
      throw FieldReader.mistyped(name(of: key), expected())
    }
    return int
  }

  func array(_ key: String) throws(ProtocolError) -> [JSONValue] {
    guard let array = try required(key, "an array").arrayValue else {
      throw FieldReader.mistyped(name(of: key), "an array")
    }
    return array
  }

  func strings(_ key: String) throws(ProtocolError) -> [String] {
    var strings: [String] = []
    for (index, element) in try array(key).enumerated() {
      guard case .string(let string) = element else {
        throw FieldReader.mistyped("\(name(of: key))[\(index)]", "a string")
      }
      strings.append(string)
    }
    return strings
  }

  func optionalStrings(_ key: String) throws(ProtocolError) -> [String]? {
    guard optional(key) != nil else { return nil }
    return try strings(key)
  }

  /// One of the raw values of `Value`: a style, an accessory, a transition.
  func name<Value: RawRepresentable & CaseIterable>(_ key: String, as _: Value.Type)
    throws(ProtocolError) -> Value where Value.RawValue == String
  {
    func expected() -> String {
      "one of " + Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    }
    guard let raw = try required(key, expected()).stringValue, let value = Value(rawValue: raw)
    else { throw FieldReader.mistyped(name(of: key), expected()) }
    return value
  }

  func object(_ key: String) throws(ProtocolError) -> FieldReader {
    try FieldReader(try required(key, "an object"), at: name(of: key))
  }

  /// The elements of the array `key`, each an object.
  func objects(_ key: String) throws(ProtocolError) -> [FieldReader] {
    var readers: [FieldReader] = []
    for (index, element) in try array(key).enumerated() {
      readers.append(try FieldReader(element, at: "\(name(of: key))[\(index)]"))
    }
    return readers
  }

  /// `[section, row]`, both non-negative.
  func indexPath(_ key: String) throws(ProtocolError) -> TableIndexPath {
    let expected = "an index path [section, row]"
    guard let pair = try required(key, expected).arrayValue, pair.count == 2,
      let section = pair[0].intValue, let row = pair[1].intValue, section >= 0, row >= 0
    else { throw FieldReader.mistyped(name(of: key), expected) }
    return TableIndexPath(row: row, section: section)
  }
}
