/// Finds the entries of a long list of 64-bit hashes whose hash occurs more than once:
/// the only rows that can have duplicate ids. A first pass marks each hash's bit in a
/// bitmap (16 bits per hash, so the bitmaps stay in the L2 cache) and marks again where
/// a bit was already set; a second pass keeps the entries on twice-marked bits, a few
/// percent, and sorting those finds the equal hashes.
enum HashCollisions {
  /// The indexes (into `first` followed by `second`) of every entry whose hash equals
  /// another entry's, grouped: entries with equal hashes are adjacent.
  static func entries(
    in first: UnsafeBufferPointer<UInt64>, _ second: UnsafeBufferPointer<UInt64>
  ) -> [Int] {
    let count = first.count + second.count
    var bitCount = 4096
    while bitCount < 16 * count { bitCount <<= 1 }
    let shift = UInt64(64 - bitCount.trailingZeroBitCount)
    var seen = [UInt64](repeating: 0, count: bitCount / 64)
    var seenTwice = [UInt64](repeating: 0, count: bitCount / 64)
    seen.withUnsafeMutableBufferPointer { seen in
      seenTwice.withUnsafeMutableBufferPointer { seenTwice in
        func mark(_ hash: UInt64) {
          let bit = Int(truncatingIfNeeded: hash >> shift)
          let word = bit >> 6
          let mask: UInt64 = 1 << UInt64(bit & 63)
          if seen[word] & mask != 0 { seenTwice[word] |= mask } else { seen[word] |= mask }
        }
        for hash in first { mark(hash) }
        for hash in second { mark(hash) }
      }
    }
    var candidates: [(hash: UInt64, index: Int)] = []
    func collect(_ hash: UInt64, _ index: Int) {
      let bit = Int(truncatingIfNeeded: hash >> shift)
      if seenTwice[bit >> 6] & (1 << UInt64(bit & 63)) != 0 { candidates.append((hash, index)) }
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
