extension JSONSyntaxError {
  /// Where ``offset`` falls in `bytes`, as an editor shows it: 1-based line, and 1-based
  /// column counted in characters (UTF-8 continuation bytes are not counted).
  public func lineAndColumn(in bytes: some Collection<UInt8>) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in bytes.prefix(offset) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }

  /// The description with its line and column in `bytes`.
  public func described(in bytes: some Collection<UInt8>) -> String {
    let (line, column) = lineAndColumn(in: bytes)
    return "\(description) (line \(line), column \(column))"
  }
}
