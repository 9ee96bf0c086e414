import TableModel

// Stand-in until the protocol's ClientMessage lands in main.
extension UserAction {
  /// Reads a client command; a wrong or missing field throws `bad_message`.
  init(message: JSONValue) throws(ProtocolError) {
    guard case .object(let object) = message else {
      throw ProtocolError(.badMessage, "a message must be a JSON object")
    }
    func string(_ key: String) throws(ProtocolError) -> String {
      guard let value = object[key]?.stringValue else {
        throw ProtocolError(.badMessage, "field \"\(key)\" must be a string")
      }
      return value
    }
    func optionalString(_ key: String) throws(ProtocolError) -> String? {
      guard let value = object[key], value != .null else { return nil }
      guard let string = value.stringValue else {
        throw ProtocolError(.badMessage, "field \"\(key)\" must be a string or null")
      }
      return string
    }
    func bool(_ key: String) throws(ProtocolError) -> Bool {
      guard let value = object[key]?.boolValue else {
        throw ProtocolError(.badMessage, "field \"\(key)\" must be true or false")
      }
      return value
    }
    func int(_ key: String) throws(ProtocolError) -> Int {
      guard let value = object[key]?.intValue else {
        throw ProtocolError(.badMessage, "field \"\(key)\" must be an integer")
      }
      return value
    }
    if let ref = object["ref"], ref != .null, ref.intValue == nil {
      throw ProtocolError(.badMessage, "field \"ref\" must be an integer")
    }
    switch try string("type") {
    case "hello": self = .helloSaid(token: try optionalString("session"))
    case "tap": self = .rowTapped(list: try string("list"), row: try string("row"))
    case "accessory": self = .accessoryButtonTapped(list: try string("list"), row: try string("row"))
    case "back": self = .backButtonTapped
    case "editing": self = .editingToggled(isOn: try bool("on"))
    case "delete":
      guard let ids = object["rows"]?.arrayValue, ids.allSatisfy({ $0.stringValue != nil }) else {
        throw ProtocolError(.badMessage, "field \"rows\" must be an array of strings")
      }
      self = .deleteConfirmed(list: try string("list"), rows: ids.compactMap(\.stringValue))
    case "insert":
      guard let row = object["row"], case .object(let fields) = row,
        let text = fields["text"]?.stringValue
      else { throw ProtocolError(.badMessage, "field \"row.text\" must be a string") }
      self = .rowInserted(
        list: try string("list"), section: try string("section"), after: try optionalString("after"),
        text: text, detail: fields["detail"]?.stringValue)
    case "move":
      self = .rowMoved(
        list: try string("list"), row: try string("row"), section: try string("section"),
        after: try optionalString("after"))
    case "toggle": self = .switchToggled(list: try string("list"), row: try string("row"), isOn: try bool("on"))
    case "update":
      let detail: String?? = object["detail"].map { $0.stringValue }
      self = .rowRenamed(
        list: try string("list"), row: try string("row"), text: try optionalString("text"), detail: detail)
    case "fetch":
      self = .rowsScrolledIntoView(
        list: try string("list"), section: try string("section"), from: try int("from"), count: try int("count"))
    case "reload": self = .reloadRequested
    case let other: throw ProtocolError(.badMessage, "unknown message type \"\(other)\"")
    }
  }
}
