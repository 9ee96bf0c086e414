/// Compares two rows' content in place, for the diff's hot loops.
///
/// `==` on two rows read from an array copies both first, retaining and releasing every
/// string in them: most of the time of a 100,000-row diff. This compares the stored fields
/// bit for bit where the rows lie, a word at a time with padding masked out; equal bits are
/// equal values (the same small string, the same string storage), and only rows whose bits
/// differ are compared with `==`.
struct RowContent {
  /// The 16-byte lanes of a row to compare: their byte offset and which of their bytes
  /// belong to a stored field.
  private let lanes: [(offset: Int, mask: SIMD2<UInt64>)]

  /// Every stored field of `Row`, by name: a test checks this against `Row` itself, so
  /// that a field added to `Row` cannot be left out of the comparison.
  static let fields: [(name: String, range: Range<Int>)] = [
    ("id", field(\.id)), ("style", field(\.style)), ("text", field(\.text)),
    ("detail", field(\.detail)), ("lines", field(\.lines)), ("image", field(\.image)),
    ("accessory", field(\.accessory)),
    ("control", field(\.control)), ("editingStyle", field(\.editingStyle)),
    ("isMovable", field(\.isMovable)), ("isSelectable", field(\.isSelectable)),
    ("isFlagged", field(\.isFlagged)), ("values", field(\.values)), ("actions", field(\.actions)),
  ]

  private static func field<Value>(_ path: KeyPath<Row, Value>) -> Range<Int> {
    let offset = MemoryLayout<Row>.offset(of: path)!
    return offset..<(offset + MemoryLayout<Value>.size)
  }

  init() {
    let size = MemoryLayout<Row>.size
    var isField = [Bool](repeating: false, count: size)
    for (_, range) in Self.fields { for byte in range { isField[byte] = true } }
    // Whole lanes, then one last lane ending at the last byte (overlapping the one before).
    var offsets = Array(stride(from: 0, through: size - 16, by: 16))
    if size % 16 != 0 { offsets.append(size - 16) }
    var covered = [Bool](repeating: false, count: size)
    lanes = offsets.compactMap { offset -> (offset: Int, mask: SIMD2<UInt64>)? in
      var mask = SIMD2<UInt64>()
      for byte in 0..<16 where isField[offset + byte] && !covered[offset + byte] {
        mask[byte / 8] |= 0xFF << UInt64(8 * (byte % 8))
        covered[offset + byte] = true
      }
      return mask == .zero ? nil : (offset, mask)
    }
  }

  @inline(__always)
  func isSame(_ a: UnsafePointer<Row>, _ b: UnsafePointer<Row>) -> Bool {
    isBitwiseSame(UnsafeRawPointer(a), UnsafeRawPointer(b)) || a.pointee == b.pointee
  }

  @inline(__always)
  private func isBitwiseSame(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
    var difference = SIMD2<UInt64>()
    for lane in lanes {
      difference |=
        (a.loadUnaligned(fromByteOffset: lane.offset, as: SIMD2<UInt64>.self)
          ^ b.loadUnaligned(fromByteOffset: lane.offset, as: SIMD2<UInt64>.self)) & lane.mask
    }
    return difference == .zero
  }
}
