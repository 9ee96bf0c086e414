import ArgumentParser

struct ExportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "export")

  func run() async throws {
    throw ValidationError("not built yet")
  }
}
