extension JSONValue {
  /// Compact JSON text: no spaces, members in order, non-ASCII characters as they are.
  public var serialized: String {
    String(decoding: serializedUTF8, as: UTF8.self)
  }

  /// The compact JSON text as UTF-8 bytes, ready for a WebSocket text frame.
  public var serializedUTF8: [UInt8] {
    var writer = JSONWriter(indent: nil)
    writer.write(self, level: 0)
    return writer.output
  }

  /// Indented JSON text (two spaces), for files people read.
  public var prettyPrinted: String {
    var writer = JSONWriter(indent: Array("  ".utf8))
    writer.write(self, level: 0)
    return String(decoding: writer.output, as: UTF8.self)
  }
}

/// Writes JSON text into a byte buffer: appending bytes is much cheaper than appending
/// to a `String` piece by piece.
private struct JSONWriter {
  var output: [UInt8] = []
  let indent: [UInt8]?
  static let hexDigits = Array("0123456789abcdef".utf8)

  init(indent: [UInt8]?) {
    self.indent = indent
    output.reserveCapacity(256)
  }

  mutating func write(_ value: JSONValue, level: Int) {
    switch value {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
    case .number(let value): writeNumber(value)
    case .string(let value): writeString(value)
    case .array(let elements):
      if elements.isEmpty {
        output.append(contentsOf: "[]".utf8)
        return
      }
      output.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        newline(level: level + 1)
        write(element, level: level + 1)
      }
      newline(level: level)
      output.append(UInt8(ascii: "]"))
    case .object(let object):
      if object.members.isEmpty {
        output.append(contentsOf: "{}".utf8)
        return
      }
      output.append(UInt8(ascii: "{"))
      for (offset, member) in object.members.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        newline(level: level + 1)
        writeString(member.key)
        output.append(UInt8(ascii: ":"))
        if indent != nil { output.append(UInt8(ascii: " ")) }
        write(member.value, level: level + 1)
      }
      newline(level: level)
      output.append(UInt8(ascii: "}"))
    }
  }

  mutating func newline(level: Int) {
    guard let indent else { return }
    output.append(UInt8(ascii: "\n"))
    for _ in 0..<level { output.append(contentsOf: indent) }
  }

  mutating func writeNumber(_ value: Double) {
    if value.isNaN || value.isInfinite {
      output.append(contentsOf: "null".utf8)  // JSON has no NaN or infinity.
    } else if value.rounded(.towardZero) == value && abs(value) <= 9_007_199_254_740_992 {
      // Whole numbers as integers: 3, not 3.0; -0 as 0. (Short strings need no allocation.)
      output.append(contentsOf: String(Int64(value)).utf8)
    } else {
      output.append(contentsOf: "\(value)".utf8)
    }
  }

  mutating func writeString(_ value: String) {
    output.append(UInt8(ascii: "\""))
    var value = value
    value.withUTF8 { bytes in
      var runStart = 0
      for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        writeEscape(byte)
        runStart = index + 1
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
    output.append(UInt8(ascii: "\""))
  }

  /// A quote, a backslash or a control character, escaped.
  mutating func writeEscape(_ byte: UInt8) {
    output.append(UInt8(ascii: "\\"))
    switch byte {
    case 0x22: output.append(UInt8(ascii: "\""))
    case 0x5C: output.append(UInt8(ascii: "\\"))
    case 0x0A: output.append(UInt8(ascii: "n"))
    case 0x0D: output.append(UInt8(ascii: "r"))
    case 0x09: output.append(UInt8(ascii: "t"))
    case 0x08: output.append(UInt8(ascii: "b"))
    case 0x0C: output.append(UInt8(ascii: "f"))
    default:
      output.append(contentsOf: "u00".utf8)
      output.append(JSONWriter.hexDigits[Int(byte >> 4)])
      output.append(JSONWriter.hexDigits[Int(byte & 0xF)])
    }
  }
}
