/// How the diff compares and hashes ids: as their UTF-8 bytes, the way the wire and the
/// browser compare them. (`String ==` would also match canonically equivalent spellings,
/// which are different ids to a JavaScript client.)
///
/// The hash is a multiply-fold hash over 8-byte words, far cheaper for short ids than
/// `Hasher`'s SipHash, which dominates a diff of 100,000 rows. It is seeded per process so
/// that ids cannot be chosen to collide.
enum IDBytes {
  static func areEqual(_ a: String, _ b: String) -> Bool {
    // The same small string, or the same storage: equal without reading the bytes.
    if unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self) {
      return true
    }
    guard a.utf8.count == b.utf8.count else { return false }
    var a = a
    var b = b
    return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
  }

  static func hash(_ id: String, seed: UInt64) -> UInt64 {
    var id = id
    return id.withUTF8 { hash($0, seed: seed) }
  }

  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
    let count = bytes.count
    var state = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
    guard let base = bytes.baseAddress, count > 0 else { return fold(state, 0x2D35_8DCC_AA6C_78A5) }
    let raw = UnsafeRawPointer(base)
    let last: UInt64
    if count >= 8 {
      var offset = 0
      while count - offset > 8 {
        state = fold(state ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self), 0xA076_1D64_78BD_642F)
        offset += 8
      }
      // The last word overlaps the one before it rather than being padded.
      last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    } else if count >= 4 {
      let low = UInt64(raw.loadUnaligned(as: UInt32.self))
      let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
      last = high << 32 | low
    } else {
      last = UInt64(base[0]) << 16 | UInt64(base[count / 2]) << 8 | UInt64(base[count - 1])
    }
    return fold(state ^ last, 0xE703_7ED1_A0B4_28DB) ^ state
  }

  /// The high and low halves of the full 128-bit product, xored: every input bit reaches
  /// every output bit.
  @inline(__always)
  private static func fold(_ value: UInt64, _ multiplier: UInt64) -> UInt64 {
    let product = value.multipliedFullWidth(by: multiplier)
    return product.high ^ product.low
  }
}
