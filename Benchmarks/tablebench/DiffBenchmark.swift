import ArgumentParser
import TableModel

/// `tablebench diff`: ``TableDiff/ops(from:to:)`` against the standard library's
/// `difference(from:).inferringMoves()` over the same rows' ids, flattened.
struct DiffBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Diff two versions of a list, against Swift's difference(from:).inferringMoves().")

  @OptionGroup var options: BenchmarkOptions

  @Flag(help: "Leave out the baseline, which takes seconds a run: for comparing quickly.")
  var noBaseline = false

  @Option(name: .customLong("case"), help: "Run only the cases with this name.")
  var cases: [String] = []

  func run() throws {
    let report = BenchmarkReport(
      title: """
        TableDiff.ops(from:to:) against the baseline "stdlib": difference(from:).inferringMoves() \
        over the flattened row ids (which knows no sections and no content). Seeded data; \
        medians. The baseline takes seconds, so it runs fewer times (its "runs" column).
        """,
      options: options)
    var random = SplitMix64(seed: 0x7AB1E)
    let original = Self.list(sections: 100, rowsPerSection: 1_000)
    try measure(
      "mixed-100k", old: original, new: Self.edited(original, using: &random), runs: 51,
      baselineRuns: 3, report: report)
    let shuffleOld = Self.list(sections: 1, rowsPerSection: 10_000)
    var shuffled = shuffleOld
    shuffled[0].rows.shuffle(using: &random)
    try measure(
      "shuffle-10k", old: shuffleOld, new: shuffled, runs: 51, baselineRuns: 3, report: report)
    // Built again rather than copied, so that no row storage is shared with the old list:
    // every row is compared. Then the same list diffed with itself, as when a change
    // touches nothing: the rows' storage is shared and only the ids are checked.
    try measure(
      "unchanged-100k", old: original, new: Self.list(sections: 100, rowsPerSection: 1_000),
      runs: 201, baselineRuns: 11, report: report)
    try measure(
      "unchanged-100k-shared", old: original, new: original, runs: 201, baselineRuns: 11,
      report: report)
  }

  private func measure(
    _ name: String, old: [Section], new: [Section], runs: Int, baselineRuns: Int,
    report: BenchmarkReport
  ) throws {
    guard cases.isEmpty || cases.contains(name) else { return }
    let ops = try TableDiff.ops(from: old, to: new)
    var screen = LoadedScreen(
      list: "L", version: 1, title: name, sections: old.map { LoadedSection($0) })
    guard try screen.apply(TableDiff(list: "L", from: 1, ops: ops)) == .applied,
      screen.sections == new.map({ LoadedSection($0) })
    else {
      throw ValidationError("\(name): applying the diff does not give the new list")
    }
    let timings = try BenchmarkClock.measure(runs: runs, warmup: 3) {
      try TableDiff.ops(from: old, to: new)
    }
    let oldIDs = old.flatMap { $0.rows.map(\.id) }
    let newIDs = new.flatMap { $0.rows.map(\.id) }
    let baseline =
      noBaseline
      ? BenchmarkTimings(samples: [], cpuSamples: [])
      : BenchmarkClock.measure(runs: baselineRuns, warmup: 0, budget: .seconds(8)) {
        newIDs.difference(from: oldIDs).inferringMoves()
      }
    report.add(
      BenchmarkResult(
        name: name, size: ("rows", old.reduce(0) { $0 + $1.rows.count }), timings: timings,
        baseline: "stdlib", baselineTimings: baseline, detail: Self.summary(of: ops)))
  }

  /// Rows like a Settings screen's: short ids (inline strings), subtitle cells.
  static func list(sections: Int, rowsPerSection: Int) -> [Section] {
    (0..<sections).map { section in
      let rows = (0..<rowsPerSection).map { index in
        let number = section * rowsPerSection + index
        return Row(
          id: "r\(number)", style: .subtitle, text: "Item \(number)", detail: "Detail \(number)",
          accessory: .disclosureIndicator)
      }
      return Section(id: "s\(section)", header: "Section \(section)", rows: rows)
    }
  }

  /// `list` with 10,000 rows deleted, 10,000 inserted, 2,000 moved to random places
  /// (mostly into other sections) and 5,000 given new text, all scattered.
  static func edited(_ list: [Section], using random: inout SplitMix64) -> [Section] {
    let rowsPerSection = list[0].rows.count
    let rowCount = list.count * rowsPerSection
    let chosen = Array((0..<rowCount).shuffled(using: &random).prefix(17_000))
    let deleted = Set(chosen[0..<10_000])
    let moved = Set(chosen[10_000..<12_000])
    let updated = Set(chosen[12_000..<17_000])
    var edited = list
    var placed: [Row] = []
    for section in edited.indices {
      var rows: [Row] = []
      for (index, row) in edited[section].rows.enumerated() {
        let number = section * rowsPerSection + index
        if deleted.contains(number) { continue }
        if moved.contains(number) {
          placed.append(row)
          continue
        }
        var row = row
        if updated.contains(number) { row.text += " (edited)" }
        rows.append(row)
      }
      edited[section].rows = rows
    }
    for number in rowCount..<(rowCount + 10_000) {
      placed.append(
        Row(id: "r\(number)", style: .subtitle, text: "New \(number)", detail: "Detail"))
    }
    for row in placed.shuffled(using: &random) {
      let section = Int.random(in: edited.indices, using: &random)
      let index = Int.random(in: 0...edited[section].rows.count, using: &random)
      edited[section].rows.insert(row, at: index)
    }
    return edited
  }

  static func summary(of ops: [DiffOp]) -> String {
    var counts: [String: Int] = [:]
    for op in ops {
      let kind = op.description.prefix { $0 != " " }
      counts[String(kind), default: 0] += 1
    }
    let kinds = ["delete", "insert", "move", "update"].filter { counts[$0] != nil }
    return kinds.isEmpty ? "no ops" : kinds.map { "\(counts[$0]!) \($0)" }.joined(separator: ", ")
  }
}
