import ArgumentParser
import Foundation
import ServiceLifecycle
import Tableweb

/// `files --port PORT --root DIR`: serves a directory tree read-only; what changes under
/// DIR reaches every viewer within a second.
@main
struct Files: AsyncParsableCommand {
  @Option(help: "The port to listen on (0 picks a free one).") var port = 8080
  @Option(help: "The folder to serve.") var root = "."
  @Flag(help: "One list sorted by name, instead of folders and files apart.") var byName = false

  func run() async throws {
    let tree = FolderTree(root: URL(fileURLWithPath: root), groupedByKind: !byName)
    let server = TablewebServer(
      dataSource: tree, configuration: .init(port: port),
      onServerRunning: { port in
        FileHandle.standardOutput.write(Data("files: open http://127.0.0.1:\(port)/\n".utf8))
      })
    // Look for changes in the folders people have opened, twice a second.
    let watcher = Task {
      while !Task.isCancelled {
        try await Task.sleep(for: .milliseconds(500))
        for folder in tree.changedFolders() { server.reloadList(folder) }
      }
    }
    // Until Ctrl-C or SIGTERM: then every viewer is told goodbye (1001) before the end.
    try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigint, .sigterm]).run()
    watcher.cancel()
  }
}
