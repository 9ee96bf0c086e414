extension JSONValue {
  /// Compact JSON text: no spaces, members in order, non-ASCII characters as they are.
  public var serialized: String {
    var output = ""
    output.reserveCapacity(64)
    write(to: &output, indent: nil, level: 0)
    return output
  }

  /// Indented JSON text (two spaces), for files people read.
  public var prettyPrinted: String {
    var output = ""
    write(to: &output, indent: "  ", level: 0)
    return output
  }

  private func write(to output: inout String, indent: String?, level: Int) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .number(let value): JSONValue.writeNumber(value, to: &output)
    case .string(let value): JSONValue.writeString(value, to: &output)
    case .array(let elements):
      if elements.isEmpty {
        output += "[]"
        return
      }
      output += "["
      for (offset, element) in elements.enumerated() {
        if offset > 0 { output += "," }
        JSONValue.newline(&output, indent: indent, level: level + 1)
        element.write(to: &output, indent: indent, level: level + 1)
      }
      JSONValue.newline(&output, indent: indent, level: level)
      output += "]"
    case .object(let object):
      if object.members.isEmpty {
        output += "{}"
        return
      }
      output += "{"
      for (offset, member) in object.members.enumerated() {
        if offset > 0 { output += "," }
        JSONValue.newline(&output, indent: indent, level: level + 1)
        JSONValue.writeString(member.key, to: &output)
        output += indent == nil ? ":" : ": "
        member.value.write(to: &output, indent: indent, level: level + 1)
      }
      JSONValue.newline(&output, indent: indent, level: level)
      output += "}"
    }
  }

  private static func newline(_ output: inout String, indent: String?, level: Int) {
    guard let indent else { return }
    output += "\n"
    for _ in 0..<level { output += indent }
  }

  private static func writeNumber(_ value: Double, to output: inout String) {
    if value.isNaN || value.isInfinite {
      output += "null"  // JSON has no NaN or infinity.
    } else if value.rounded(.towardZero) == value && abs(value) <= 9_007_199_254_740_992 {
      output += String(Int64(value))  // whole numbers as integers: 3, not 3.0; -0 as 0
    } else {
      output += "\(value)"
    }
  }

  private static func writeString(_ value: String, to output: inout String) {
    output += "\""
    var needsEscaping = false
    for byte in value.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
      needsEscaping = true
      break
    }
    if !needsEscaping {
      output += value
      output += "\""
      return
    }
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
