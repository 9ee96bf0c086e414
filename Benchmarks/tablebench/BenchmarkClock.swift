#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Times work the same way for every benchmark: warm-up runs that are not counted, then
/// measured runs until either the run count or the time budget is reached (at least one).
/// Each run is timed on the wall clock and in this thread's CPU time: on a busy machine the
/// two part, and the CPU time says what the work itself cost.
enum BenchmarkClock {
  static func measure<Result>(
    runs: Int, warmup: Int = 2, budget: Duration = .seconds(15), _ work: () throws -> Result
  ) rethrows -> BenchmarkTimings {
    let clock = ContinuousClock()
    for _ in 0..<warmup { keep(try work()) }
    var timings = BenchmarkTimings(samples: [], cpuSamples: [])
    timings.samples.reserveCapacity(runs)
    timings.cpuSamples.reserveCapacity(runs)
    let start = clock.now
    while timings.samples.count < runs, timings.samples.isEmpty || clock.now - start < budget {
      let before = clock.now
      let cpuBefore = threadCPUTime()
      let result = try work()
      timings.cpuSamples.append(threadCPUTime() - cpuBefore)
      timings.samples.append(clock.now - before)
      keep(result)
    }
    return timings
  }

  /// Hides `value` from the optimizer, so that the work producing it is not left out.
  @inline(never)
  static func keep<Value>(_ value: Value) {
    withExtendedLifetime(value) {}
  }

  /// The CPU time this thread has used.
  static func threadCPUTime() -> Duration {
    var time = timespec()
    let status = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    precondition(status == 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed: \(status)")
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  /// The 1-minute load average, to say how busy the machine was; nil where unknown.
  static func loadAverage() -> Double? {
    var loads = [Double](repeating: 0, count: 1)
    guard getloadavg(&loads, 1) == 1 else { return nil }
    return loads[0]
  }
}
