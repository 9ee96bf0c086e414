/// The measured runs of one piece of work: wall-clock and CPU time per run.
struct BenchmarkTimings {
  var samples: [Duration]
  var cpuSamples: [Duration]

  var runs: Int { samples.count }

  var medianMilliseconds: Double { Self.milliseconds(Self.median(samples)) }
  var cpuMedianMilliseconds: Double { Self.milliseconds(Self.median(cpuSamples)) }

  static func median(_ durations: [Duration]) -> Duration {
    let sorted = durations.sorted()
    guard !sorted.isEmpty else { return .zero }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
  }
}
