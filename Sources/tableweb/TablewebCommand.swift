import ArgumentParser

@main
struct TablewebCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tableweb",
    abstract: "UIKit's table views, served live to the browser.",
    version: version,
    subcommands: [
      ServeCommand.self, ImportCommand.self, ExportCommand.self, ClientCommand.self,
      AccessCommand.self, HistoryCommand.self,
    ],
    defaultSubcommand: ServeCommand.self)

  /// What `tableweb --version` prints.
  static let version = "0.2.0"
}
