import ArgumentParser

struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "serve")

  func run() async throws {
    throw ValidationError("not built yet")
  }
}
