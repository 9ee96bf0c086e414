/// The diff's index of row ids: every row of the old and the new sections that has been
/// entered, found by id.
///
/// Each entered row gets a key, counting from 0 in the order rows are entered; the diff
/// enters every old row first, so an old row's key is its position in the flattened old
/// list. Open addressing with linear probing over one array of 8-byte slots keeps a probe
/// to one cache line; the slot holds 32 bits of the id's hash, so unequal ids are almost
/// never compared byte by byte.
struct RowIDTable {
  enum Side: UInt64 { case old = 0, new = 1 }

  /// Where an entered row lives.
  struct Location {
    var side: Side
    var section: Int
    var row: Int
  }

  private let old: [Section]
  private let new: [Section]
  /// Per slot: 0 when empty, else the high 32 bits of the hash above `key + 1`.
  private var slots: [UInt64]
  private let mask: Int
  /// Per key: side in bit 63, section in bits 32..<63, row in bits 0..<32.
  private var locations: [UInt64] = []
  private let capacity: Int
  private let seed: UInt64

  /// A table for up to `capacity` rows of `old` and `new`.
  init(old: [Section], new: [Section], capacity: Int) {
    precondition(capacity < Int(UInt32.max), "\(capacity) rows are more than a diff can key")
    self.old = old
    self.new = new
    // At most half full: linear probing stays short.
    var slotCount = 16
    while slotCount < 2 * capacity { slotCount <<= 1 }
    slots = Array(repeating: 0, count: slotCount)
    mask = slotCount - 1
    locations.reserveCapacity(capacity)
    self.capacity = capacity
    seed = Self.processSeed
  }

  private static let processSeed = UInt64.random(in: .min ... .max)

  var count: Int { locations.count }

  /// The row with key `key`.
  func location(ofKey key: Int) -> Location {
    let packed = locations[key]
    return Location(
      side: packed >> 63 == 0 ? .old : .new,
      section: Int(truncatingIfNeeded: (packed >> 32) & 0x7FFF_FFFF),
      row: Int(truncatingIfNeeded: packed & 0xFFFF_FFFF))
  }

  /// Enters the row at `location`, whose id is `id`, unless a row with that id was entered
  /// before: then returns that row's key and enters nothing.
  mutating func enter(_ id: String, at location: Location) -> Int? {
    let hash = IDBytes.hash(id, seed: seed)
    let tag = hash >> 32
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { break }
      if entry >> 32 == tag {
        let key = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
        if IDBytes.areEqual(self.id(ofKey: key), id) { return key }
      }
      slot = (slot + 1) & mask
    }
    precondition(locations.count < capacity, "row \(locations.count + 1) entered in a table for \(capacity)")
    slots[slot] = tag << 32 | UInt64(locations.count + 1)
    locations.append(
      location.side.rawValue << 63 | UInt64(location.section) << 32 | UInt64(location.row))
    return nil
  }

  private func id(ofKey key: Int) -> String {
    let location = location(ofKey: key)
    switch location.side {
    case .old: return old[location.section].rows[location.row].id
    case .new: return new[location.section].rows[location.row].id
    }
  }
}
