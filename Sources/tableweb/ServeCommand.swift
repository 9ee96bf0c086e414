import ArgumentParser
import Foundation
import TableDemo
import TableServer
import Logging
import ServiceLifecycle
import TableStore

#if canImport(Glibc)
  import Glibc
#endif


struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve", abstract: "Serve the page and the live tables on one port.")

  @Option(help: "The port to listen on (0 picks a free one).")
  var port = 8080

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The SQLite database (created with the demo app when missing).")
  var db = "tableweb.sqlite"

  @Option(help: "A folder to serve as the page instead of the built-in one (for working on it).")
  var `public`: String?

  @Flag(help: "Refuse every command that changes data.")
  var readOnly = false

  @Option(
    help: "An origin (scheme://host:port) allowed to connect besides the server's own; repeatable.")
  var allowedOrigin: [String] = []

  @Option(help: "The largest message a client may send, in bytes.")
  var maxFrame = 65536

  @Flag(help: "Offer permessage-deflate (costs about 300 KiB of zlib state per connection).")
  var permessageDeflate = false

  @Flag(
    help:
      "Serve a non-loopback --host with no access grants anyway: anyone who reaches it may read and change everything."
  )
  var open = false

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
    guard maxFrame >= 256 else { throw ValidationError("--max-frame must be at least 256") }
    if let problem = ListenAddressCheck.problem(with: host) { throw ValidationError(problem) }
  }

  func run() async throws {
    let server = try makeServer()
    Self.raiseOpenFileLimit()
    do {
      try server.start()
    } catch {
      throw CommandFailure("\(error)")
    }
    let shownHost = host.contains(":") ? "[\(host)]" : host
    let announcement = """
      tableweb: open http://\(shownHost):\(server.port)/  (database \(db)\(readOnly ? ", read-only" : ""))

      """
    var group = ServiceGroupConfiguration(
      services: [.init(service: Announced(server: server, announcement: announcement))],
      logger: Logger(label: "tableweb"))
    // SIGTERM and SIGINT stop gracefully: connections get a close frame after what is
    // queued for them; a stop that takes longer than 10 s is cut short.
    group.gracefulShutdownSignals = [.sigterm, .sigint]
    group.maximumGracefulShutdownDuration = .seconds(10)
    try await ServiceGroup(configuration: group).run()
    print("tableweb: stopped")
  }

  /// Prints the URL once the service group traps the stop signals, then serves: whoever
  /// reads the URL may stop the server at once.
  private struct Announced: Service {
    let server: TablewebServer
    let announcement: String

    func run() async throws {
      // Unbuffered: scripts and tests wait for this line.
      FileHandle.standardOutput.write(Data(announcement.utf8))
      try await server.run()
    }
  }

  /// How long a session's navigation stack is kept after it last changed: 30 days.
  static let sessionLifetime = 30 * 24 * 60 * 60

  /// The store's lists and sessions behind the server.
  private func makeServer() throws -> TablewebServer {
    let store: Store
    do {
      store = readOnly ? try Store(path: db, readOnly: true) : try Store.openOrCreateDemo(path: db)
    } catch {
      throw CommandFailure("cannot open the database \(db): \(error)")
    }
    if !readOnly {
      // Every first visit stores a session; forget those nobody has moved in for a while.
      do {
        try store.deleteSessions(olderThan: Self.sessionLifetime)
      } catch {
        FileHandle.standardError.write(
          Data("tableweb: old sessions could not be forgotten: \(error)\n".utf8))
      }
    }
    try checkAccessIsRequired(store)
    let dataSource = StoreDataSource(store: store)
    return TablewebServer(
      dataSource: dataSource, sessionStorage: dataSource,
      authenticator: StoreAuthenticator(store: store),
      configuration: .init(
        host: host, port: port, pageDirectory: self.public, allowedOrigins: allowedOrigin,
        maxMessageSize: maxFrame, permessageDeflate: permessageDeflate, isReadOnly: readOnly))
  }

  /// Each connection is a file descriptor: allow as many as the system lets this process
  /// have (libwebsockets sizes its tables to the limit, so not beyond 65536).
  private static func raiseOpenFileLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    let wanted = min(limit.rlim_max, 65536)
    guard limit.rlim_cur < wanted else { return }
    limit.rlim_cur = wanted
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  }
}
