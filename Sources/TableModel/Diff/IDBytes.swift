/// How the diff compares and hashes ids: as their UTF-8 bytes, the way the wire and the
/// browser compare them. (`String ==` would also match canonically equivalent spellings,
/// which are different ids to a JavaScript client.)
enum IDBytes {
  @inline(__always)
  static func areEqual(_ a: String, _ b: String) -> Bool {
    // The same small string, or the same storage: equal without reading the bytes.
    (MemoryLayout<String>.size == 16
      && unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self))
      || haveEqualBytes(a, b)
  }

  /// Called only when `a` and `b` differ bit for bit.
  @inline(never)
  private static func haveEqualBytes(_ a: String, _ b: String) -> Bool {
    // Two small strings hold their bytes in their bits, so different bits are different
    // bytes: the usual answer for the diff's guesses, found without reading a byte.
    if smallStringsAreInline {
      let highA = unsafeBitCast(a, to: (UInt64, UInt64).self).1
      let highB = unsafeBitCast(b, to: (UInt64, UInt64).self).1
      if highA & highB & smallFlag != 0 { return false }
    }
    guard a.utf8.count == b.utf8.count else { return false }
    var a = a
    var b = b
    return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
  }

  /// A multiply-fold hash of an id's bytes: far cheaper for short ids than `Hasher`'s
  /// SipHash, which would dominate a diff of 100,000 rows. Seeded per process so that ids
  /// cannot be chosen to collide.
  struct Hasher {
    private let seed = IDBytes.seed
    /// Whether a small string's bytes can be read from its bits (checked once).
    private let readsSmallStringsInline = IDBytes.smallStringsAreInline

    @inline(__always)
    func hash(_ id: String) -> UInt64 {
      if MemoryLayout<String>.size == 16, readsSmallStringsInline {
        // Up to 15 bytes live in the string's own 16 bytes, zero-padded, with the count
        // in the top byte: hashed without a call, a copy or a retain.
        let (low, high) = unsafeBitCast(id, to: (UInt64, UInt64).self)
        if high & IDBytes.smallFlag != 0 {
          return IDBytes.hashShort(
            low, high & 0x00FF_FFFF_FFFF_FFFF, count: Int(truncatingIfNeeded: (high >> 56) & 0xF),
            seed: seed)
        }
      }
      return IDBytes.hash(id, seed: seed)
    }
  }

  private static let seed = UInt64.random(in: .min ... .max)

  /// Bit 61 of a 64-bit string's second word marks a small string; its top byte's low
  /// nibble is the count, and its bytes fill the first word and the rest of the second.
  fileprivate static let smallFlag: UInt64 = 1 << 61

  /// Whether this toolchain lays small strings out as the fast paths read them; when not,
  /// they read bytes instead. A test fails when it is false, so a change is noticed.
  static let smallStringsAreInline: Bool = {
    guard MemoryLayout<String>.size == 16 else { return false }
    let large = String(repeating: "abcdefgh", count: 3)
    guard unsafeBitCast(large, to: (UInt64, UInt64).self).1 & smallFlag == 0 else { return false }
    let probe = "abcdefghijklmn"
    let (low, high) = unsafeBitCast(probe, to: (UInt64, UInt64).self)
    var expected: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &expected) { $0.copyBytes(from: probe.utf8) }
    return high & smallFlag != 0 && (high >> 56) & 0xF == 14 && low == expected.0
      && high & 0x00FF_FFFF_FFFF_FFFF == expected.1
  }()

  @inline(never)
  fileprivate static func hash(_ id: String, seed: UInt64) -> UInt64 {
    if let hash = id.utf8.withContiguousStorageIfAvailable({ hash($0, seed: seed) }) {
      return hash
    }
    var id = id
    return id.withUTF8 { hash($0, seed: seed) }
  }

  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
    let count = bytes.count
    guard count > 15, let base = bytes.baseAddress else {
      // Short ids hash as their zero-padded two words, as small strings hold them.
      var words: (UInt64, UInt64) = (0, 0)
      withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
      return hashShort(words.0, words.1, count: count, seed: seed)
    }
    let raw = UnsafeRawPointer(base)
    var state = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
    var offset = 0
    while count - offset > 8 {
      state = fold(
        state ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self), 0xA076_1D64_78BD_642F)
      offset += 8
    }
    // The last word overlaps the one before it rather than being padded.
    let last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    return fold(state ^ last, 0xE703_7ED1_A0B4_28DB) ^ state
  }

  @inline(__always)
  fileprivate static func hashShort(_ low: UInt64, _ high: UInt64, count: Int, seed: UInt64)
    -> UInt64
  {
    let state = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
    let mixed = fold(state ^ low, 0xA076_1D64_78BD_642F)
    return fold(mixed ^ high, 0xE703_7ED1_A0B4_28DB) ^ state
  }

  /// The high and low halves of the full 128-bit product, xored: every input bit reaches
  /// every output bit.
  @inline(__always)
  private static func fold(_ value: UInt64, _ multiplier: UInt64) -> UInt64 {
    let product = value.multipliedFullWidth(by: multiplier)
    return product.high ^ product.low
  }
}
