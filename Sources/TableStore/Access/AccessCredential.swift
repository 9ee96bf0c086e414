import CCrypto
import Foundation

/// Access credentials: made from the system's cryptographic random source, stored only as
/// their SHA-256, compared in constant time. All three come from libcrypto (OpenSSL);
/// nothing here is a hand-written primitive.
public enum AccessCredential {
  /// Random bytes in a credential: 256 bits.
  static let byteCount = 32

  /// A new credential: 32 random bytes as 43 characters of base64url (no padding), safe in
  /// a URL fragment and on a command line.
  public static func make() -> String {
    var bytes = [UInt8](repeating: 0, count: byteCount)
    guard RAND_bytes(&bytes, Int32(byteCount)) == 1 else {
      // No entropy means no safe credential: there is nothing sensible to fall back to.
      fatalError("libcrypto could not produce random bytes")
    }
    return base64URL(bytes)
  }

  /// The SHA-256 of the credential's UTF-8 bytes: what the database keeps.
  public static func hash(_ credential: String) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    let input = Array(credential.utf8)
    input.withUnsafeBufferPointer { bytes in
      _ = SHA256(bytes.baseAddress, bytes.count, &digest)
    }
    return digest
  }

  /// Whether two digests are equal, in time that does not depend on where they differ.
  public static func digestsMatch(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count, !a.isEmpty else { return false }
    return a.withUnsafeBytes { a in
      b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
    }
  }

  /// base64url without padding (RFC 4648 §5), from Foundation's base64.
  static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// A digest as lowercase hex: how the database stores it.
  public static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
