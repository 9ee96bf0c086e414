/// Times work the same way for every benchmark: warm-up runs that are not counted, then
/// measured runs until either the run count or the time budget is reached (at least one).
enum BenchmarkClock {
  static func measure<Result>(
    runs: Int, warmup: Int = 2, budget: Duration = .seconds(15), _ work: () throws -> Result
  ) rethrows -> BenchmarkTimings {
    let clock = ContinuousClock()
    for _ in 0..<warmup { keep(try work()) }
    var samples: [Duration] = []
    samples.reserveCapacity(runs)
    let start = clock.now
    while samples.count < runs, samples.isEmpty || clock.now - start < budget {
      let before = clock.now
      let result = try work()
      samples.append(clock.now - before)
      keep(result)
    }
    return BenchmarkTimings(samples: samples)
  }

  /// Hides `value` from the optimizer, so that the work producing it is not left out.
  @inline(never)
  static func keep<Value>(_ value: Value) {
    withExtendedLifetime(value) {}
  }
}
