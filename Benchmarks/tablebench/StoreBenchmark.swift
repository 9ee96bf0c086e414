import ArgumentParser

struct StoreBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "store")

  func run() throws {
    throw ValidationError("not built yet")
  }
}
