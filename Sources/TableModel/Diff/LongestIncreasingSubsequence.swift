/// Finds which elements of a sequence of distinct integers lie on one longest increasing
/// subsequence: the rows (or sections) that keep their order, so that only the others need
/// to move. Patience sorting, O(n log n), and O(n) when the sequence is already increasing.
///
/// A class over raw storage that it keeps between calls, so that one value serves every
/// section of a diff without allocating again or checking uniqueness on every append.
///
/// - Important: Not for sharing between threads.
final class LongestIncreasingSubsequence {
  /// `tails[k]`: the position of the smallest value that ends an increasing subsequence of
  /// length `k + 1` so far.
  private var tails = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
  /// Per position: the position before it on the subsequence ending there, or -1.
  private var predecessors = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
  private var isOnSubsequence = UnsafeMutableBufferPointer<Bool>(start: nil, count: 0)

  deinit {
    tails.deallocate()
    predecessors.deallocate()
    isOnSubsequence.deallocate()
  }

  /// Whether each element of `values` lies on the subsequence found; valid until the next
  /// call.
  func mark(_ values: UnsafeBufferPointer<Int>) -> UnsafeBufferPointer<Bool> {
    reserve(values.count)
    var length = 0
    for (position, value) in values.enumerated() {
      isOnSubsequence[position] = false
      if length == 0 || values[tails[length - 1]] < value {
        predecessors[position] = length > 0 ? tails[length - 1] : -1
        tails[length] = position
        length += 1
        continue
      }
      // The first tail not below `value` gets `value` instead.
      var low = 0
      var high = length - 1
      while low < high {
        let middle = (low + high) / 2
        if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
      }
      predecessors[position] = low > 0 ? tails[low - 1] : -1
      tails[low] = position
    }
    var position = length > 0 ? tails[length - 1] : -1
    while position >= 0 {
      isOnSubsequence[position] = true
      position = predecessors[position]
    }
    return UnsafeBufferPointer(rebasing: isOnSubsequence[0..<values.count])
  }

  func mark(_ values: [Int]) -> [Bool] {
    values.withUnsafeBufferPointer { Array(mark($0)) }
  }

  private func reserve(_ count: Int) {
    guard tails.count < count else { return }
    let capacity = max(count, 2 * tails.count)
    tails.deallocate()
    predecessors.deallocate()
    isOnSubsequence.deallocate()
    tails = .allocate(capacity: capacity)
    predecessors = .allocate(capacity: capacity)
    isOnSubsequence = .allocate(capacity: capacity)
  }
}
