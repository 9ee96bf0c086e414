/// Finds which elements of a sequence of distinct integers lie on one longest increasing
/// subsequence: the rows (or sections) that keep their order, so that only the others need
/// to move. Patience sorting, O(n log n), and O(n) when the sequence is already increasing.
///
/// The buffers are kept between calls, so one value serves every section of a diff without
/// allocating again.
struct LongestIncreasingSubsequence {
  /// `tails[k]`: the position of the smallest value that ends an increasing subsequence of
  /// length `k + 1` so far.
  private var tails: [Int] = []
  /// Per position: the position before it on the subsequence ending there, or -1.
  private var predecessors: [Int] = []

  /// Sets `isOnSubsequence[i]` for every `i` in `values.indices`; `isOnSubsequence` is
  /// resized to `values.count`.
  mutating func mark(_ values: [Int], into isOnSubsequence: inout [Bool]) {
    isOnSubsequence.removeAll(keepingCapacity: true)
    isOnSubsequence.append(contentsOf: repeatElement(false, count: values.count))
    tails.removeAll(keepingCapacity: true)
    predecessors.removeAll(keepingCapacity: true)
    for (position, value) in values.enumerated() {
      if let last = tails.last, values[last] >= value {
        // The first tail not below `value` gets `value` instead.
        var low = 0
        var high = tails.count - 1
        while low < high {
          let middle = (low + high) / 2
          if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        predecessors.append(low > 0 ? tails[low - 1] : -1)
        tails[low] = position
      } else {
        predecessors.append(tails.last ?? -1)
        tails.append(position)
      }
    }
    var position = tails.last ?? -1
    while position >= 0 {
      isOnSubsequence[position] = true
      position = predecessors[position]
    }
  }
}
