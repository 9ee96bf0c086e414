import ArgumentParser

struct DiffBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "diff")

  func run() throws {
    throw ValidationError("not built yet")
  }
}
