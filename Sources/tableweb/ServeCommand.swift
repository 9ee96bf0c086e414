import ArgumentParser
import Foundation
import TableDemo
import TableServer
import TableStore

#if canImport(Glibc)
  import Glibc
#endif

/// The write end of the pipe the signal handler writes to.
nonisolated(unsafe) private var signalPipe: Int32 = -1

struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve", abstract: "Serve the page and the live tables on one port.")

  @Option(help: "The port to listen on (0 picks a free one).")
  var port = 8080

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The SQLite database (created with the demo app when missing).")
  var db = "tableweb.sqlite"

  @Option(help: "The folder served as the page (default: the package's Public folder).")
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
    let configuration = WebSocketServer.Configuration(
      host: host, port: port, publicDirectory: self.public ?? Self.defaultPublicDirectory(),
      allowedOrigins: allowedOrigin, maxMessageSize: maxFrame,
      permessageDeflate: permessageDeflate)
    let server = WebSocketServer(configuration: configuration)
    let delegate = try makeConnectionDelegate(transport: server)
    let accessWatch = AccessWatch(server: server, host: delegate)
    defer { accessWatch.cancel() }
    Self.raiseOpenFileLimit()
    do {
      try server.start(delegate: delegate)
    } catch {
      throw CommandFailure("\(error)")
    }
    // Before the URL is out: whoever reads it may stop the server at once.
    Self.stopOnSignals(server)
    let shownHost = host.contains(":") ? "[\(host)]" : host
    // Unbuffered: scripts and tests wait for this line.
    FileHandle.standardOutput.write(
      Data(
        """
        tableweb: open http://\(shownHost):\(server.port)/  (database \(db)\(readOnly ? ", read-only" : ""))

        """.utf8))

    await server.waitUntilStopped()
    print("tableweb: stopped")
  }

  /// How long a session's navigation stack is kept after it last changed: 30 days.
  static let sessionLifetime = 30 * 24 * 60 * 60

  /// The one place where the sessions layer is wired to the transport.
  private func makeConnectionDelegate(transport: WebSocketServer) throws -> SessionHost {
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
    return SessionHost(
      store: store, transport: transport,
      configuration: SessionServerConfiguration(isReadOnly: readOnly))
  }

  /// SIGINT and SIGTERM stop the server gracefully; a second one exits at once.
  ///
  /// The handler only writes a byte to a pipe (all a signal handler may safely do); a
  /// thread reading the pipe asks the server to stop.
  private static func stopOnSignals(_ server: WebSocketServer) {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return }
    signalPipe = descriptors[1]
    for signalNumber in [SIGINT, SIGTERM] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { _ in
        var byte: UInt8 = 1
        _ = write(signalPipe, &byte, 1)
      }
      sigaction(signalNumber, &action, nil)
    }
    let reader = descriptors[0]
    let thread = Thread {
      var byte: UInt8 = 0
      guard read(reader, &byte, 1) == 1 else { return }
      server.requestStop()
      guard read(reader, &byte, 1) == 1 else { return }
      FileHandle.standardError.write(Data("tableweb: stopping now\n".utf8))
      Glibc.exit(1)
    }
    thread.start()
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

  /// The `Public` folder of the package this executable was built from (found by walking
  /// up from the executable to a folder holding `Package.swift`), else `./Public`.
  static func defaultPublicDirectory() -> String {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    do {
      folder = URL(
        fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    } catch {
      // No /proc (not Linux): the path the program was started by is the best guess.
    }
    while folder.path != "/" {
      folder.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
      {
        return folder.appendingPathComponent("Public").path
      }
    }
    return "Public"
  }
}
