/// Finds, among many 32-bit hashes, those that occur more than once: the only rows that can
/// have duplicate ids. Each hash is marked in a bitmap (16 bits per hash, so the bitmaps
/// stay in the L2 cache), marking a second bitmap where its bit was already set; at the end, the entries on twice-marked bits, a few percent, are sorted by hash to
/// find the equal ones.
///
/// - Important: Not for sharing between threads.
final class HashCollisions {
  private let seen: UnsafeMutableBufferPointer<UInt64>
  private let seenTwice: UnsafeMutableBufferPointer<UInt64>
  private let shift: UInt32

  /// Bitmaps for about `count` hashes.
  init(count: Int) {
    var bitCount = 4096
    while bitCount < 16 * count, bitCount < 1 << 32 { bitCount <<= 1 }
    shift = UInt32(32 - bitCount.trailingZeroBitCount)
    seen = .allocate(capacity: bitCount / 64)
    seen.initialize(repeating: 0)
    seenTwice = .allocate(capacity: bitCount / 64)
    seenTwice.initialize(repeating: 0)
  }

  deinit {
    seen.deallocate()
    seenTwice.deallocate()
  }

  @inline(__always)
  func mark(_ hash: UInt32) {
    let bit = Int(truncatingIfNeeded: hash >> shift)
    let mask: UInt64 = 1 << UInt64(bit & 63)
    if seen[bit >> 6] & mask != 0 { seenTwice[bit >> 6] |= mask } else { seen[bit >> 6] |= mask }
  }

  /// The indexes (into `first` followed by `second`, every hash of which was marked) of the
  /// entries whose hash equals another entry's; entries with equal hashes are adjacent.
  func entries(in first: UnsafeBufferPointer<UInt32>, _ second: UnsafeBufferPointer<UInt32>)
    -> [Int]
  {
    precondition(
      first.count + second.count <= Int(UInt32.max),
      "\(first.count + second.count) hashes are more than HashCollisions sorts")
    // Hash above index, so that integer order is hash order.
    var candidates: [UInt64] = []
    func collect(_ hash: UInt32, _ index: Int) {
      let bit = Int(truncatingIfNeeded: hash >> shift)
      if seenTwice[bit >> 6] & (1 << UInt64(bit & 63)) != 0 {
        candidates.append(UInt64(hash) << 32 | UInt64(truncatingIfNeeded: index))
      }
    }
    for (index, hash) in first.enumerated() { collect(hash, index) }
    for (index, hash) in second.enumerated() { collect(hash, first.count + index) }
    candidates.sort()
    var collisions: [Int] = []
    for position in candidates.indices {
      let hash = candidates[position] >> 32
      if (position > 0 && candidates[position - 1] >> 32 == hash)
        || (position + 1 < candidates.count && candidates[position + 1] >> 32 == hash)
      {
        collisions.append(Int(truncatingIfNeeded: candidates[position] & 0xFFFF_FFFF))
      }
    }
    return collisions
  }
}
