import ArgumentParser

struct FanoutBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "fanout")

  func run() throws {
    throw ValidationError("not built yet")
  }
}
