import ArgumentParser
import TableModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The options every benchmark takes.
struct BenchmarkOptions: ParsableArguments {
  @Flag(help: "Print one JSON line per case instead of a table.")
  var json = false
}

/// One case of a benchmark: our figure and a baseline's, measured in the same run.
struct BenchmarkResult {
  var name: String
  /// What the case is sized by, for the JSON line: `("rows", 100_000)`.
  var size: (key: String, value: Int)
  var timings: BenchmarkTimings
  var baseline: String
  var baselineTimings: BenchmarkTimings
  /// Anything else the table shows about the case ("27,000 ops").
  var detail: String = ""

  var ratio: Double { baselineTimings.medianMilliseconds / timings.medianMilliseconds }

  var jsonLine: String {
    let object: JSONObject = [
      "case": .string(name),
      size.key: .int(size.value),
      "median_ms": .number(rounded(timings.medianMilliseconds, places: 4)),
      "baseline": .string(baseline),
      "baseline_median_ms": .number(rounded(baselineTimings.medianMilliseconds, places: 3)),
      "ratio": .number(rounded(ratio, places: 1)),
    ]
    return JSONValue.object(object).serialized
  }
}

/// Prints a benchmark's results as they come: a table for people, or with `--json` one
/// JSON line per case on standard output and everything else on standard error.
struct BenchmarkReport {
  private let json: Bool
  private static let columns = [
    ("case", 23), ("size", 14), ("median ms", 11), ("cpu ms", 9), ("runs", 6),
    ("baseline ms", 13), ("runs", 6), ("ratio", 10), ("", 0),
  ]

  init(title: String, options: BenchmarkOptions) {
    json = options.json
    note(title)
    if let load = BenchmarkClock.loadAverage() {
      note(
        "Load average \(format(load, places: 2)) on \(Self.processorCount) cores; "
          + "\"cpu ms\" is this thread's CPU time per run (median).")
    }
    if !json {
      print(Self.row(Self.columns.map(\.0)))
    }
  }

  func add(_ result: BenchmarkResult) {
    if json {
      print(result.jsonLine)
      return
    }
    print(
      Self.row([
        result.name, "\(result.size.value) \(result.size.key)",
        format(result.timings.medianMilliseconds, places: 3),
        format(result.timings.cpuMedianMilliseconds, places: 3), "\(result.timings.runs)",
        format(result.baselineTimings.medianMilliseconds, places: 1),
        "\(result.baselineTimings.runs)", format(result.ratio, places: 0) + "×", result.detail,
      ]))
  }

  /// A line for people: on standard output with the table, on standard error with JSON.
  func note(_ text: String) {
    if json {
      var standardError = StandardError()
      print(text, to: &standardError)
    } else {
      print(text)
    }
  }

  private static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  private static func row(_ cells: [String]) -> String {
    zip(cells, columns).map { cell, column in
      cell.count >= column.1
        ? cell + " " : cell + String(repeating: " ", count: column.1 - cell.count)
    }.joined()
  }
}

func rounded(_ value: Double, places: Int) -> Double {
  var scale = 1.0
  for _ in 0..<places { scale *= 10 }
  return (value * scale).rounded() / scale
}

/// `value` with `places` decimals, without Foundation's formatters.
func format(_ value: Double, places: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  let scaled = Int(rounded(value, places: places) * Double(pow10(places)))
  guard places > 0 else { return "\(scaled)" }
  let whole = scaled / pow10(places)
  let fraction = String(abs(scaled % pow10(places)))
  return "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
}

private func pow10(_ exponent: Int) -> Int {
  (0..<exponent).reduce(1) { value, _ in value * 10 }
}

private func writeToStandardError(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
  write(2, bytes.baseAddress, bytes.count)
}

private struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { bytes in _ = writeToStandardError(bytes) }
  }
}
