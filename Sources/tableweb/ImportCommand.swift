import ArgumentParser

struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "import")

  func run() async throws {
    throw ValidationError("not built yet")
  }
}
