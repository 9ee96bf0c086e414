import ArgumentParser

@main
struct TableBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tablebench",
    abstract:
      "Benchmarks that print figures, with ratios against a baseline measured in the same run.",
    subcommands: [
      DiffBenchmark.self, StoreBenchmark.self, FanoutBenchmark.self, TwoServersBenchmark.self,
      BiglistBenchmark.self, ClusterBenchmark.self,
      SearchBenchmark.self, AbuseBenchmark.self, IndexedBenchmark.self, ImportBenchmark.self,
    ])
}
