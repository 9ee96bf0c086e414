extension ClientMessage {
  /// The integer `ref` at the top level of a frame, read without parsing the frame: for
  /// answering a frame refused unread (`rate_limited`) or one that is not JSON, so that the
  /// client knows which of its commands it was. One pass over the bytes, nothing
  /// allocated. Nil when the frame does not start as an object or has no integer `ref`
  /// at its top level (a `ref` inside a nested object or a string does not count).
  public static func peekRef(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { bytes in
      var scanner = RefScanner(bytes: bytes)
      return scanner.topLevelRef()
    }
  }
}

/// The scan behind ``ClientMessage/peekRef(_:)``: strings are skipped with their escapes,
/// nesting is counted, and only a key at depth 1 is compared with `ref`.
private struct RefScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  mutating func topLevelRef() -> Int? {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    var depth = 1
    var expectsKey = true
    var keyIsRef = false
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        let start = index
        guard skipString() else { return nil }
        if depth == 1 && expectsKey {
          keyIsRef = isRef(from: start, to: index - 1)
          expectsKey = false
        }
      case UInt8(ascii: ":") where depth == 1:
        if keyIsRef, let ref = integer() { return ref }
        keyIsRef = false
      case UInt8(ascii: ","):
        if depth == 1 { expectsKey = true }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 { return nil }
      default:
        break
      }
    }
    return nil
  }

  /// Moves past the closing quote of a string whose opening quote was just read; false
  /// when the text ends first.
  private mutating func skipString() -> Bool {
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "\\") {
        index += 1
      } else if byte == UInt8(ascii: "\"") {
        return true
      }
    }
    return false
  }

  private func isRef(from start: Int, to end: Int) -> Bool {
    end - start == 3 && bytes[start] == UInt8(ascii: "r") && bytes[start + 1] == UInt8(ascii: "e")
      && bytes[start + 2] == UInt8(ascii: "f")
  }

  /// A JSON integer of at most 18 digits, followed by the end of the value.
  private mutating func integer() -> Int? {
    skipWhitespace()
    var negative = false
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    var value = 0
    var digits = 0
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9")
    {
      value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      digits += 1
      index += 1
      if digits > 18 { return nil }
    }
    guard digits > 0 else { return nil }
    skipWhitespace()
    guard index < bytes.count,
      bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: "}")
    else { return nil }
    return negative ? -value : value
  }

  private mutating func skipWhitespace() {
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
    {
      index += 1
    }
  }
}
