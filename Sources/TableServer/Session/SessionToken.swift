/// The secret that names one session's navigation stack: 128 random bits from the system
/// generator (getrandom on Linux), written as 32 lowercase hex digits.
///
/// The server never accepts a token it did not issue as a new session's name: an unknown
/// token starts a new session under a fresh token, so nobody can pick a guessable one.
public struct SessionToken: Sendable, Hashable, CustomStringConvertible {
  public let rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// A fresh token from `SystemRandomNumberGenerator`.
  public static func random() -> SessionToken {
    var generator = SystemRandomNumberGenerator()
    return random(using: &generator)
  }

  static func random(using generator: inout some RandomNumberGenerator) -> SessionToken {
    let hexDigits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(32)
    for _ in 0..<2 {
      let word = generator.next() as UInt64
      for shift in stride(from: 60, through: 0, by: -4) {
        text.append(hexDigits[Int((word >> UInt64(shift)) & 0xF)])
      }
    }
    return SessionToken(rawValue: String(decoding: text, as: UTF8.self))
  }

  /// Whether `text` has the form of a token this server issues: anything else is
  /// treated as unknown without asking the store.
  public static func isWellFormed(_ text: String) -> Bool {
    text.utf8.count == 32
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  public var description: String { "session \(rawValue.prefix(6))…" }
}
