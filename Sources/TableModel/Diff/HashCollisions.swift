/// Finds, among many 32-bit hashes, those that occur more than once: the only rows that can
/// have duplicate ids. Each hash is marked in a bitmap as it is computed (8 bits per hash,
/// so the bitmap stays in the L2 cache), and marked again in a second bitmap where its bit
/// was already set; at the end, the entries on twice-marked bits, about a tenth, are sorted
/// by hash to find the equal ones.
///
/// The two bitmaps are interleaved word by word, so that marking touches one cache line,
/// and marking does not branch: which way it goes is a coin toss the CPU cannot predict.
///
/// - Important: Not for sharing between threads.
final class HashCollisions {
  /// Word `2k` holds bits seen once or more, word `2k + 1` the same bits seen twice or more.
  private let words: UnsafeMutableBufferPointer<UInt64>
  private let shift: UInt32

  /// Bitmaps for about `count` hashes.
  init(count: Int) {
    var bitCount = 4096
    while bitCount < 8 * count, bitCount < 1 << 32 { bitCount <<= 1 }
    shift = UInt32(32 - bitCount.trailingZeroBitCount)
    words = .allocate(capacity: 2 * bitCount / 64)
    words.initialize(repeating: 0)
  }

  deinit { words.deallocate() }

  @inline(__always)
  func mark(_ hash: UInt32) {
    let bit = Int(truncatingIfNeeded: hash >> shift)
    let mask: UInt64 = 1 << UInt64(bit & 63)
    let word = (bit >> 6) &* 2
    let seen = words[word]
    words[word + 1] |= seen & mask
    words[word] = seen | mask
  }

  /// The indexes (into `first` followed by `second`, every hash of which was marked) of the
  /// entries whose hash equals another entry's; entries with equal hashes are adjacent.
  func entries(in first: UnsafeBufferPointer<UInt32>, _ second: UnsafeBufferPointer<UInt32>)
    -> [Int]
  {
    var candidates: [(hash: UInt32, index: Int)] = []
    func collect(_ hash: UInt32, _ index: Int) {
      let bit = Int(truncatingIfNeeded: hash >> shift)
      if words[(bit >> 6) &* 2 + 1] & (1 << UInt64(bit & 63)) != 0 {
        candidates.append((hash, index))
      }
    }
    for (index, hash) in first.enumerated() { collect(hash, index) }
    for (index, hash) in second.enumerated() { collect(hash, first.count + index) }
    candidates.sort { $0.hash < $1.hash }
    var collisions: [Int] = []
    for position in candidates.indices {
      let hash = candidates[position].hash
      if (position > 0 && candidates[position - 1].hash == hash)
        || (position + 1 < candidates.count && candidates[position + 1].hash == hash)
      {
        collisions.append(candidates[position].index)
      }
    }
    return collisions
  }
}
