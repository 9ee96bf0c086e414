/// The measured runs of one piece of work.
struct BenchmarkTimings {
  var samples: [Duration]

  var runs: Int { samples.count }

  var median: Duration {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .zero }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  var medianMilliseconds: Double { Self.milliseconds(median) }

  static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
  }
}
