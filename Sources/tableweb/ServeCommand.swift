import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import TableDemo
import TableServer
import TableStore

#if canImport(Glibc)
  import Glibc
#endif

struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve", abstract: "Serve the page and the live tables on one port.",
    discussion: """
      Every option can also come from the environment: TABLEWEB_PORT, TABLEWEB_HOST, \
      TABLEWEB_DB, TABLEWEB_DEMO, TABLEWEB_PUBLIC, TABLEWEB_NO_PAGE_WORKER, TABLEWEB_READ_ONLY, \
      TABLEWEB_ALLOWED_ORIGIN (comma-separated), TABLEWEB_ALLOWED_HOST (comma-separated), \
      TABLEWEB_MAX_MESSAGE_SIZE, \
      TABLEWEB_PERMESSAGE_DEFLATE, TABLEWEB_NO_METRICS, TABLEWEB_METRICS_PORT, \
      TABLEWEB_METRICS_HOST, TABLEWEB_LOG_LEVEL, TABLEWEB_LOG_KEEP, TABLEWEB_LOG_HOURS, \
      TABLEWEB_LOG_FORMAT, TABLEWEB_HEADER_TIMEOUT, TABLEWEB_MAX_CONNECTIONS, \
      TABLEWEB_MAX_CONNECTIONS_PER_ADDRESS, TABLEWEB_MAX_PENDING_HEADERS_PER_ADDRESS, \
      TABLEWEB_TRUSTED_PROXY (comma-separated), TABLEWEB_SERVICE_THREADS. A flag on the command line wins over its variable. \
      Yes/no variables take 1/0, true/false, yes/no or on/off.

      GET /healthz answers 200 "ok" while the database can be read, 503 otherwise; \
      GET /metrics answers the Prometheus text format. Under systemd (Type=notify) the \
      server sends READY=1 once it listens. See docs/deploying.md.
      """)

  @Option(help: "The port to listen on (0 picks a free one). [TABLEWEB_PORT, default 8080]")
  var port: Int?

  @Option(help: "The address to listen on. [TABLEWEB_HOST, default 127.0.0.1]")
  var host: String?

  @Option(
    help: """
      The SQLite database file, or a PostgreSQL database as postgres://USER@HOST:PORT/DB. \
      Only the default file is created (with the demo app) when missing; any other path \
      must exist, unless --demo. An empty PostgreSQL database gets the demo app. \
      [TABLEWEB_DB, default tableweb.sqlite]
      """)
  var db: String?

  @Flag(help: "Create the database with the demo app when it is missing. [TABLEWEB_DEMO]")
  var demo = false

  @Option(
    help:
      "A folder to serve as the page instead of the built-in one (for working on it). [TABLEWEB_PUBLIC]"
  )
  var `public`: String?

  @Flag(
    help: """
      Serve the page without its service worker: every visit asks for the page again, and \
      browsers drop the copy an earlier worker kept. [TABLEWEB_NO_PAGE_WORKER]
      """)
  var noPageWorker = false

  @Flag(help: "Refuse every command that changes data. [TABLEWEB_READ_ONLY]")
  var readOnly = false

  @Option(
    help: """
      An origin (scheme://host:port) allowed to connect besides the server's own; \
      repeatable. [TABLEWEB_ALLOWED_ORIGIN, comma-separated]
      """)
  var allowedOrigin: [String] = []

  @Option(
    help: """
      A host name (without port) answered besides localhost and loopback addresses, as \
      behind a proxy that passes the browser's Host; repeatable. On a loopback --host any \
      other Host gets 403 (against DNS rebinding); given, a server on any address checks \
      too. [TABLEWEB_ALLOWED_HOST, comma-separated]
      """)
  var allowedHost: [String] = []

  @Option(
    help: """
      The largest message a client may send, in bytes. \
      [TABLEWEB_MAX_MESSAGE_SIZE, default 65536]
      """)
  var maxMessageSize: Int?

  /// The old name of --max-message-size (and TABLEWEB_MAX_FRAME of its variable), kept
  /// for scripts; not shown.
  @Option(help: .hidden)
  var maxFrame: Int?

  @Flag(
    help:
      "Offer permessage-deflate (costs about 300 KiB of zlib state per connection). [TABLEWEB_PERMESSAGE_DEFLATE]"
  )
  var permessageDeflate = false

  @Flag(
    help:
      "Serve a non-loopback --host with no access grants anyway: anyone who reaches it may read and change everything. [TABLEWEB_OPEN]"
  )
  var open = false

  @Flag(help: "Do not count or serve GET /metrics. [TABLEWEB_NO_METRICS]")
  var noMetrics = false

  @Option(
    help:
      "Serve GET /metrics on this port instead of the main one. [TABLEWEB_METRICS_PORT]")
  var metricsPort: Int?

  @Option(
    help:
      "The address of the metrics port (with --metrics-port). [TABLEWEB_METRICS_HOST, default: --host]"
  )
  var metricsHost: String?

  @Option(
    help:
      "trace, debug, info, notice, warning, error or critical. [TABLEWEB_LOG_LEVEL, default info]"
  )
  var logLevel: String?

  @Option(help: "text or json (one JSON object a line). [TABLEWEB_LOG_FORMAT, default text]")
  var logFormat: String?

  @Option(
    help:
      "How many changes the change log keeps (for resuming clients and other servers). [TABLEWEB_LOG_KEEP, default 10000]"
  )
  var logKeep: Int?

  @Option(help: "How many hours the change log keeps a change. [TABLEWEB_LOG_HOURS, default 24]")
  var logHours: Int?

  @Option(
    help: """
      How many days the audit record (who changed what: change_log) keeps a change; \
      the history follows the change log. [TABLEWEB_AUDIT_DAYS, default 90]
      """)
  var auditDays: Int?

  @Option(
    help:
      "Seconds a request's headers may take to arrive; slower connections are dropped. [TABLEWEB_HEADER_TIMEOUT, default 5]"
  )
  var headerTimeout: Int?

  @Option(
    help: "Connections held at once; past it, HTTP 503. [TABLEWEB_MAX_CONNECTIONS, default 20000]")
  var maxConnections: Int?

  @Option(
    help:
      "Connections one address may hold at once; past it, HTTP 503. [TABLEWEB_MAX_CONNECTIONS_PER_ADDRESS, default 1000]"
  )
  var maxConnectionsPerAddress: Int?

  @Option(
    help:
      "Connections one address may have still sending their request's headers; past it, HTTP 503. [TABLEWEB_MAX_PENDING_HEADERS_PER_ADDRESS, default 32]"
  )
  var maxPendingHeadersPerAddress: Int?

  @Option(
    help: """
      The address of a reverse proxy in front of the server, whose X-Forwarded-For names the \
      client (its last entry that is not a trusted proxy); repeatable. Nobody else's \
      X-Forwarded-For is read. [TABLEWEB_TRUSTED_PROXY, comma-separated]
      """)
  var trustedProxy: [String] = []

  @Option(
    help: """
      How many threads read and write the connections, each with its own libwebsockets \
      context on the same port (1…64); more than one also runs the data on a thread of its \
      own. [TABLEWEB_SERVICE_THREADS, default 1]
      """)
  var serviceThreads: Int?

  static let defaultDatabase = "tableweb.sqlite"

  /// The settings, flags first, then the environment, then the defaults.
  struct Settings {
    var port: Int
    var host: String
    var db: String
    var demo: Bool
    var publicDirectory: String?
    var readOnly: Bool
    var allowedOrigins: [String]
    var allowedHosts: [String]
    var maxMessageSize: Int
    var permessageDeflate: Bool
    var open: Bool
    var servesMetrics: Bool
    var metricsPort: Int?
    var metricsHost: String?
    var logLevel: Logger.Level
    var jsonLogs: Bool
    var logRetention = Store.LogRetention.default
    var auditDays = Store.defaultAuditRetention / 86_400
    var headerTimeout = 5
    var maxConnections = 20_000
    var maxConnectionsPerAddress = 1_000
    var maxPendingHeadersPerAddress = 32
    var trustedProxies: [String] = []
    var pageWorker = true
    var serviceThreads = 1
  }

  func settings(_ environment: EnvironmentDefaults = EnvironmentDefaults()) throws -> Settings {
    let levelName = environment.string(logLevel, "TABLEWEB_LOG_LEVEL", default: "info")
    guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
      throw ValidationError(
        "log level \(levelName) is not one of trace, debug, info, notice, warning, error, critical")
    }
    let format = environment.string(logFormat, "TABLEWEB_LOG_FORMAT", default: "text")
    guard format == "text" || format == "json" else {
      throw ValidationError("log format \(format) is not text or json")
    }
    var settings = Settings(
      port: try environment.int(port, "TABLEWEB_PORT", default: 8080),
      host: environment.string(host, "TABLEWEB_HOST", default: "127.0.0.1"),
      db: environment.string(db, "TABLEWEB_DB", default: Self.defaultDatabase),
      demo: try environment.bool(demo, "TABLEWEB_DEMO"),
      publicDirectory: environment.optionalString(self.public, "TABLEWEB_PUBLIC"),
      readOnly: try environment.bool(readOnly, "TABLEWEB_READ_ONLY"),
      allowedOrigins: environment.list(allowedOrigin, "TABLEWEB_ALLOWED_ORIGIN"),
      allowedHosts: environment.list(allowedHost, "TABLEWEB_ALLOWED_HOST"),
      maxMessageSize: try environment.int(
        maxMessageSize ?? maxFrame, "TABLEWEB_MAX_MESSAGE_SIZE",
        default: try environment.int(nil, "TABLEWEB_MAX_FRAME", default: 65536)),
      permessageDeflate: try environment.bool(permessageDeflate, "TABLEWEB_PERMESSAGE_DEFLATE"),
      open: try environment.bool(open, "TABLEWEB_OPEN"),
      servesMetrics: !(try environment.bool(noMetrics, "TABLEWEB_NO_METRICS")),
      metricsPort: try environment.optionalInt(metricsPort, "TABLEWEB_METRICS_PORT"),
      metricsHost: environment.optionalString(metricsHost, "TABLEWEB_METRICS_HOST"),
      logLevel: level, jsonLogs: format == "json",
      logRetention: Store.LogRetention(
        count: try environment.int(logKeep, "TABLEWEB_LOG_KEEP", default: 10_000),
        age: try environment.int(logHours, "TABLEWEB_LOG_HOURS", default: 24) * 3600))
    settings.auditDays = try environment.int(auditDays, "TABLEWEB_AUDIT_DAYS", default: 90)
    settings.headerTimeout = try environment.int(
      headerTimeout, "TABLEWEB_HEADER_TIMEOUT", default: 5)
    settings.maxConnections = try environment.int(
      maxConnections, "TABLEWEB_MAX_CONNECTIONS", default: 20_000)
    settings.maxConnectionsPerAddress = try environment.int(
      maxConnectionsPerAddress, "TABLEWEB_MAX_CONNECTIONS_PER_ADDRESS", default: 1_000)
    settings.maxPendingHeadersPerAddress = try environment.int(
      maxPendingHeadersPerAddress, "TABLEWEB_MAX_PENDING_HEADERS_PER_ADDRESS", default: 32)
    settings.trustedProxies = environment.list(trustedProxy, "TABLEWEB_TRUSTED_PROXY")
    settings.pageWorker = !(try environment.bool(noPageWorker, "TABLEWEB_NO_PAGE_WORKER"))
    settings.serviceThreads = try environment.int(
      serviceThreads, "TABLEWEB_SERVICE_THREADS", default: 1)
    return settings
  }

  func validate() throws {
    let settings = try settings()
    guard (0...65535).contains(settings.port) else {
      throw ValidationError("--port (TABLEWEB_PORT) must be 0…65535, not \(settings.port)")
    }
    guard settings.logRetention.count >= 1, settings.logRetention.age >= 3600 else {
      throw ValidationError(
        "--log-keep (TABLEWEB_LOG_KEEP) and --log-hours (TABLEWEB_LOG_HOURS) must be at least 1")
    }
    guard settings.auditDays >= 1 else {
      throw ValidationError("--audit-days (TABLEWEB_AUDIT_DAYS) must be at least 1")
    }
    guard settings.maxMessageSize >= 256 else {
      throw ValidationError(
        "--max-message-size (TABLEWEB_MAX_MESSAGE_SIZE) must be at least 256")
    }
    if let problem = ListenAddressCheck.problem(with: settings.host) {
      throw ValidationError(problem)
    }
    for (value, flag, variable) in [
      (settings.headerTimeout, "--header-timeout", "TABLEWEB_HEADER_TIMEOUT"),
      (settings.maxConnections, "--max-connections", "TABLEWEB_MAX_CONNECTIONS"),
      (
        settings.maxConnectionsPerAddress, "--max-connections-per-address",
        "TABLEWEB_MAX_CONNECTIONS_PER_ADDRESS"
      ),
      (
        settings.maxPendingHeadersPerAddress, "--max-pending-headers-per-address",
        "TABLEWEB_MAX_PENDING_HEADERS_PER_ADDRESS"
      ),
    ] where value < 1 {
      throw ValidationError("\(flag) (\(variable)) must be at least 1, not \(value)")
    }
    guard (1...64).contains(settings.serviceThreads) else {
      throw ValidationError(
        "--service-threads (TABLEWEB_SERVICE_THREADS) must be 1…64, not \(settings.serviceThreads)")
    }
    for proxy in settings.trustedProxies where !ListenAddressCheck.isIPAddress(proxy) {
      throw ValidationError(
        "--trusted-proxy (TABLEWEB_TRUSTED_PROXY) takes IP addresses; \(proxy) is not one")
    }
    if let metricsPort = settings.metricsPort, !(0...65535).contains(metricsPort) {
      throw ValidationError("--metrics-port (TABLEWEB_METRICS_PORT) must be 0…65535")
    }
    if let metricsHost = settings.metricsHost {
      guard settings.metricsPort != nil else {
        throw ValidationError("--metrics-host needs --metrics-port")
      }
      if let problem = ListenAddressCheck.problem(with: metricsHost) {
        throw ValidationError(problem.replacingOccurrences(of: "--host", with: "--metrics-host"))
      }
    }
  }

  func run() async throws {
    let settings = try settings()
    LoggingSystem.bootstrap { label in
      var handler: any LogHandler =
        settings.jsonLogs
        ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
      handler.logLevel = settings.logLevel
      return handler
    }
    let logger = Logger(label: "tableweb")
    let server = try makeServer(settings, logger: logger)
    Self.raiseOpenFileLimit()
    do {
      try await server.start()
    } catch {
      throw CommandFailure("\(error)")
    }
    logger.info(
      "listening",
      metadata: [
        "host": "\(settings.host)", "port": "\(server.port)",
        "database": "\(DatabaseOption.shown(settings.db))",
        "read_only": "\(settings.readOnly)", "version": "\(TablewebCommand.version)",
        "metrics_port": "\(settings.servesMetrics ? String(server.metricsPort) : "off")",
      ])
    let shownHost = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
    let announcement = """
      tableweb: open http://\(shownHost):\(server.port)/  (database \(DatabaseOption.shown(settings.db))\(settings.readOnly ? ", read-only" : ""))

      """
    var group = ServiceGroupConfiguration(
      services: [
        .init(service: Announced(server: server, announcement: announcement, logger: logger))
      ],
      logger: logger)
    // SIGTERM and SIGINT stop gracefully: connections get a close frame after what is
    // queued for them; a stop that takes longer than 10 s is cut short.
    group.gracefulShutdownSignals = [.sigterm, .sigint]
    group.maximumGracefulShutdownDuration = .seconds(10)
    try await ServiceGroup(configuration: group).run()
    logger.info("stopped")
    print("tableweb: stopped")
  }

  /// Prints the URL and tells systemd once the service group traps the stop signals, then serves: whoever
  /// reads the URL may stop the server at once.
  private struct Announced: Service {
    let server: TablewebServer
    let announcement: String
    let logger: Logger

    func run() async throws {
      // Unbuffered: scripts and tests wait for this line.
      FileHandle.standardOutput.write(Data(announcement.utf8))
      // systemd (Type=notify) may stop the server as soon as it hears this.
      if let problem = SystemdNotifier.notify(
        "READY=1", socketPath: ProcessInfo.processInfo.environment["NOTIFY_SOCKET"])
      {
        logger.warning(
          "systemd was not told the server is ready", metadata: ["reason": "\(problem)"])
      }
      try await server.run()
    }
  }

  /// How long a session's navigation stack is kept after it last changed: 30 days.
  static let sessionLifetime = 30 * 24 * 60 * 60

  /// The store's lists and sessions behind the server.
  private func makeServer(_ settings: Settings, logger: Logger) throws -> TablewebServer {
    let db = settings.db
    if !DatabaseOption.exists(db) {
      guard settings.demo || (db == Self.defaultDatabase && !settings.readOnly) else {
        throw CommandFailure(
          "the database \(db) does not exist (pass --demo to create it with the demo app, or make it with `tableweb import FILE.json --db \(db)`)"
        )
      }
    }
    let store: Store
    do {
      store =
        settings.readOnly
        ? try Store(path: db, readOnly: true) : try Store.openOrCreateDemo(path: db)
    } catch {
      throw CommandFailure("cannot open the database \(DatabaseOption.shown(db)): \(error)")
    }
    if !settings.readOnly {
      // Every first visit stores a session; forget those nobody has moved in for a while.
      do {
        try store.deleteSessions(olderThan: Self.sessionLifetime)
      } catch {
        logger.warning("old sessions could not be forgotten", metadata: ["error": "\(error)"])
      }
    }
    try checkAccessIsRequired(store, settings: settings)
    store.logRetention = settings.logRetention
    store.auditRetention = settings.auditDays * 86_400
    let dataSource = StoreDataSource(store: store, logger: logger)
    var configuration = TablewebServer.Configuration(host: settings.host, port: settings.port)
    configuration.publicDirectory = settings.publicDirectory
    configuration.allowedOrigins = settings.allowedOrigins
    configuration.maxMessageSize = settings.maxMessageSize
    configuration.permessageDeflate = settings.permessageDeflate
    configuration.isReadOnly = settings.readOnly
    configuration.servesMetrics = settings.servesMetrics
    configuration.allowedHosts = settings.allowedHosts
    configuration.metricsPort = settings.metricsPort
    configuration.metricsHost = settings.metricsHost
    configuration.logger = logger
    configuration.headerTimeoutSeconds = settings.headerTimeout
    configuration.maxConnections = settings.maxConnections
    configuration.maxConnectionsPerAddress = settings.maxConnectionsPerAddress
    configuration.maxPendingHeadersPerAddress = settings.maxPendingHeadersPerAddress
    configuration.trustedProxies = settings.trustedProxies
    configuration.pageWorker = settings.pageWorker
    configuration.serviceThreads = settings.serviceThreads
    configuration.healthCheck = { Store.canRead(path: db) }
    return TablewebServer(
      dataSource: dataSource, sessionStorage: dataSource,
      authenticator: StoreAuthenticator(store: store, logger: logger), configuration: configuration)
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
