/// An open-addressing hash table from id hashes to small integer keys, for the diff's hot
/// loops. It stores no ids: the caller hashes them with `IDBytes` and says, given a key,
/// whether that key's id is the one looked for.
///
/// Linear probing over 8-byte slots, at most half full; a slot holds 32 bits of the hash
/// beside `key + 1`, so unequal ids are almost never compared byte by byte. A class over
/// raw storage, so that probing pays for no uniqueness or exclusivity checks; `reset`
/// keeps the storage, so one table serves every section of a diff.
///
/// - Important: Not for sharing between threads.
final class IDHashTable {
  /// 0 when empty, else the high 32 bits of the hash above `key + 1`.
  private var slots = UnsafeMutableBufferPointer<UInt64>(start: nil, count: 0)
  private var mask = 0

  deinit { slots.deallocate() }

  /// Empties the table and makes room for `count` keys.
  func reset(capacity count: Int) {
    precondition(count < Int(UInt32.max), "\(count) keys are more than an IDHashTable holds")
    var slotCount = 16
    while slotCount < 2 * count { slotCount <<= 1 }
    if slots.count < slotCount {
      slots.deallocate()
      slots = .allocate(capacity: slotCount)
    }
    slots.baseAddress!.update(repeating: 0, count: slotCount)
    mask = slotCount - 1
  }

  /// The key stored under `hash` that `isMatch` accepts, or nil after storing `key` there.
  @inline(__always)
  func findOrAdd(_ key: Int, hash: UInt64, isMatch: (Int) -> Bool) -> Int? {
    let tag = hash >> 32
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { break }
      if entry >> 32 == tag, isMatch(Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1) {
        return Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
      }
      slot = (slot + 1) & mask
    }
    slots[slot] = tag << 32 | UInt64(key + 1)
    return nil
  }

  /// The key stored under `hash` that `isMatch` accepts, if any.
  @inline(__always)
  func find(hash: UInt64, isMatch: (Int) -> Bool) -> Int? {
    let tag = hash >> 32
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return nil }
      if entry >> 32 == tag, isMatch(Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1) {
        return Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
      }
      slot = (slot + 1) & mask
    }
  }
}
