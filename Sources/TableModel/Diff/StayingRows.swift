/// The rows of one section that stay in it, as the diff finds them: old row and new row,
/// in new order. Raw storage kept from section to section, so that appending costs no
/// uniqueness check.
///
/// - Important: Not for sharing between threads.
final class StayingRows {
  private(set) var oldRows = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
  private(set) var newRows = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
  private(set) var count = 0

  deinit {
    oldRows.deallocate()
    newRows.deallocate()
  }

  /// Empties the list and makes room for `capacity` rows.
  func reset(capacity: Int) {
    count = 0
    guard oldRows.count < capacity else { return }
    oldRows.deallocate()
    newRows.deallocate()
    oldRows = .allocate(capacity: max(capacity, 2 * oldRows.count))
    newRows = .allocate(capacity: oldRows.count)
  }

  @inline(__always)
  func append(old: Int, new: Int) {
    precondition(count < oldRows.count, "row \(count + 1) staying in a section of \(oldRows.count)")
    oldRows[count] = old
    newRows[count] = new
    count += 1
  }

  /// The old rows so far, in new order.
  var oldRowsInNewOrder: UnsafeBufferPointer<Int> {
    UnsafeBufferPointer(rebasing: oldRows[0..<count])
  }
}
