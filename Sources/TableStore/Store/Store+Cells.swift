import TableModel

extension Store {
  /// Stores a screen's custom cell layout (import).
  func insertCell(_ cell: CellTemplate?, list: Int) throws(StoreError) {
    guard let cell else { return }
    try execute(
      "INSERT INTO list_cell (list_id, slots) VALUES (?, ?)", list, cell.jsonValue.serialized)
  }

  /// The list's custom cell layout, if it has one.
  func cell(ofList list: Int) throws(StoreError) -> CellTemplate? {
    guard
      let text = try fetchOne(
        "SELECT slots FROM list_cell WHERE list_id = ?", [list], { $0.string(0) })
    else { return nil }
    do {
      return try CellTemplate(json: JSONValue(parsing: text))
    } catch {
      throw .invalidData(path: "list_cell", message: "a stored cell layout does not read: \(error)")
    }
  }

  /// A row's slot values as stored: a JSON object of strings, or NULL for none.
  static func storedValues(_ values: [String: String]) -> String? {
    values.isEmpty ? nil : Row.valuesJSON(values).serialized
  }

  /// The values `storedValues` wrote. The store writes the column itself, so a value
  /// that does not parse cannot come from tableweb; it reads as no values.
  static func values(stored text: String?) -> [String: String] {
    guard let text, let object = (try? JSONValue(parsing: text))?.objectValue else { return [:] }
    var values: [String: String] = [:]
    for (key, value) in object.members { values[key] = value.stringValue }
    return values
  }
}
