import Foundation
import Logging
import ServiceLifecycle
import TableModel
import TableStore

/// tableweb as a library: your ``TableDataSource`` served live to browsers (the page is
/// built in) and to any client of the protocol, on one port.
///
/// ```swift
/// let server = TablewebServer(dataSource: MyLists(), configuration: .init(port: 8080))
/// try await server.run()  // until the task is cancelled or stop() is called
/// ```
///
/// When your data changes, say so from any thread or task; every viewer of the list gets
/// one diff, exactly as for a browser's edit:
/// - ``reloadList(_:)`` (`reloadData`): the list is read again and diffed;
/// - ``performBatchUpdates(in:_:)``: the rows you inserted, deleted, moved or reloaded,
///   by id, without reading the list again;
/// - ``SnapshotDataSource/apply(_:)``: a whole new snapshot of a list, diffed for you.
///
/// A `Service` of swift-service-lifecycle: run it in a `ServiceGroup` for graceful
/// shutdown on SIGTERM.
public final class TablewebServer: Service, Sendable {
  /// What can be set about a server. Every field has a default.
  public struct Configuration: Sendable {
    /// An IP address of this machine, or `localhost`.
    public var host: String
    /// 0 lets the system pick a free port: read it back from ``TablewebServer/port``.
    public var port: Int
    /// A folder to serve as the page instead of the built-in one (for working on it).
    public var pageDirectory: String?
    /// Origins (`scheme://host[:port]`) allowed to connect besides the server's own.
    public var allowedOrigins: [String]
    /// The largest message a client may send, in bytes.
    public var maxMessageSize: Int
    /// Offer permessage-deflate (costs about 300 KiB of zlib state per connection).
    public var permessageDeflate: Bool
    /// Refuse every command that changes data, and show every list as not editable.
    public var isReadOnly: Bool
    /// How many rows of each section a screen carries before the client fetches more.
    public var screenRowLimit: Int
    /// Serve `GET /metrics` on this address and ``metricsPort`` instead of the main port
    /// (nil: the main port). Only an IP address or `localhost`.
    public var metricsHost: String?
    /// Serve `GET /metrics` on this port instead of the main one (0 picks a free one;
    /// read it back from ``TablewebServer/metricsPort``).
    public var metricsPort: Int?
    /// Count and serve `GET /metrics` (Prometheus text) on the same port; false counts
    /// nothing (the log lines remain).
    public var servesMetrics = true
    /// What `GET /healthz` checks: true when the server can read its data (the database
    /// file, say). Called on a thread of its own, one check at a time (requests during a
    /// check share its answer), so it may wait on a network.
    public var healthCheck: @Sendable () -> Bool = { true }
    /// Whether the session core (and so the data source) runs on a thread of its own
    /// instead of the one that reads and writes every connection: then a slow data source
    /// (a network round trip per command) stalls the commands behind it but not the
    /// connections' pings, writes and static files (see ``CoreRelay``). nil: only when the
    /// data is a ``StoreDataSource`` on PostgreSQL.
    public var runsCoreOnOwnThread: Bool?
    /// Where connections, refused commands, start and stop are logged.
    public var logger = Logger(label: "tableweb")
    /// Host names (no port) answered besides `localhost` and loopback addresses: a server
    /// on a loopback ``host`` answers only those (403 otherwise, against DNS rebinding),
    /// and names given here make a server on any address check too. Behind a proxy that
    /// passes the browser's `Host`, the public name goes here.
    public var allowedHosts: [String] = []
    /// Seconds a request's headers may take to arrive; slower ones are dropped.
    public var headerTimeoutSeconds = 5
    /// Connections held at once; past it, HTTP 503.
    public var maxConnections = 20_000
    /// Connections one address may hold at once; past it, HTTP 503.
    public var maxConnectionsPerAddress = 1_000
    /// Connections one address may have still sending their first request's headers.
    public var maxPendingHeadersPerAddress = 32
    /// Reverse proxies whose `X-Forwarded-For` is believed (see
    /// ``WebSocketServer/Configuration/trustedProxies``).
    public var trustedProxies: [String] = []
    /// Whether the page built in brings its service worker, which answers a second visit
    /// from the browser's cache (see ``WebSocketServer/Configuration/pageWorker``).
    public var pageWorker = true

    public init(
      host: String = "127.0.0.1", port: Int = 8080, pageDirectory: String? = nil,
      allowedOrigins: [String] = [], maxMessageSize: Int = 64 * 1024,
      permessageDeflate: Bool = false, isReadOnly: Bool = false, screenRowLimit: Int = 300
    ) {
      self.host = host
      self.port = port
      self.pageDirectory = pageDirectory
      self.allowedOrigins = allowedOrigins
      self.maxMessageSize = maxMessageSize
      self.permessageDeflate = permessageDeflate
      self.isReadOnly = isReadOnly
      self.screenRowLimit = screenRowLimit
    }
  }

  public let configuration: Configuration
  private let transport: WebSocketServer
  /// The listener of `/metrics` alone, when it has a port of its own.
  private let metricsTransport: WebSocketServer?
  private let metricsListener: ServiceThreadBound<MetricsListener>?
  /// The transport's delegate: the session host itself, or the relay that puts it on a
  /// thread of its own. Touched only on the service thread.
  private let delegate: ServiceThreadBound<any ConnectionDelegate>
  /// Where the session host runs: the service thread, or ``coreThread``.
  private let hostQueue: any WorkQueue
  private let host: ServiceThreadBound<SessionHost>
  /// The session core's own thread, when the data source makes network round trips
  /// (PostgreSQL): nil runs it on the service thread (see ``CoreRelay``).
  private let coreThread: CoreThread?
  /// Rechecks access every second while serving, when there is an authenticator.
  private let accessWatch: LockedValue<AccessWatch?> = LockedValue(nil)
  private let hasAuthenticator: Bool
  /// Watches the SQLite file for other processes' commits, when the data is one.
  private let changeWatch: LockedValue<ChangeWatch?> = LockedValue(nil)
  private let watchedDatabase: String?
  /// `/healthz` and `/metrics`.
  private let routes: ServiceThreadBound<OperatorRoutes>
  /// Those and the session host's `/api/commands`, on the main port.
  private let allRoutes: ServiceThreadBound<HTTPRoutes>

  /// - Parameters:
  ///   - dataSource: your lists. Called only on the server's thread.
  ///   - sessionStorage: where sessions' navigation stacks are kept; by default in memory
  ///     (they survive a reconnect, not a restart).
  ///   - authenticator: who may connect and with which role (see ``Authenticator``);
  ///     nil lets everyone in. Revocations it reports close connections within 2 s.
  public init(
    dataSource: some TableDataSource, sessionStorage: (any SessionStorage)? = nil,
    authenticator: (any Authenticator)? = nil,
    configuration: Configuration = Configuration()
  ) {
    hasAuthenticator = authenticator != nil
    watchedDatabase = (dataSource as? StoreDataSource).map(\.store.path)
    self.configuration = configuration
    var transportConfiguration = WebSocketServer.Configuration(
      host: configuration.host, port: configuration.port,
      publicDirectory: configuration.pageDirectory,
      allowedOrigins: configuration.allowedOrigins,
      maxMessageSize: configuration.maxMessageSize,
      permessageDeflate: configuration.permessageDeflate,
      dynamicPaths: OperatorRoutes.paths(
        servesMetrics: configuration.servesMetrics && configuration.metricsPort == nil),
      allowedHosts: configuration.allowedHosts)
    transportConfiguration.headerTimeoutSeconds = configuration.headerTimeoutSeconds
    transportConfiguration.maxConnections = configuration.maxConnections
    transportConfiguration.maxConnectionsPerAddress = configuration.maxConnectionsPerAddress
    transportConfiguration.maxPendingHeadersPerAddress = configuration.maxPendingHeadersPerAddress
    transportConfiguration.trustedProxies = configuration.trustedProxies
    transportConfiguration.pageWorker = configuration.pageWorker
    transport = WebSocketServer(configuration: transportConfiguration)
    if configuration.servesMetrics, let metricsPort = configuration.metricsPort {
      let metrics = WebSocketServer(
        configuration: .init(
          host: configuration.metricsHost ?? configuration.host, port: metricsPort,
          dynamicPaths: [OperatorRoutes.metrics], servesPage: false,
          allowedHosts: configuration.allowedHosts))
      metricsTransport = metrics
      metricsListener = ServiceThreadBound(MetricsListener(transport: metrics))
    } else {
      metricsTransport = nil
      metricsListener = nil
    }
    let telemetry = ServerTelemetry(
      logger: configuration.logger, recordsMetrics: configuration.servesMetrics)
    routes = ServiceThreadBound(
      OperatorRoutes(
        telemetry: telemetry, healthCheck: configuration.healthCheck,
        servesMetrics: configuration.servesMetrics))
    let core = SessionServer(
      dataSource: dataSource, sessionStorage: sessionStorage ?? MemorySessionStorage(),
      configuration: SessionServerConfiguration(
        isReadOnly: configuration.isReadOnly, screenRowLimit: configuration.screenRowLimit),
      authenticator: authenticator)
    if configuration.runsCoreOnOwnThread
      ?? watchedDatabase.map(Store.isPostgresURL) ?? false
    {
      // Each command is a network round trip: it waits on a thread of its own, not on the
      // one that reads and writes every connection.
      let thread = CoreThread()
      let relay = CoreRelay(transport: transport, core: thread)
      let host = SessionHost(server: core, transport: relay, telemetry: telemetry)
      relay.attach(host)
      self.host = ServiceThreadBound(host)
      coreThread = thread
      hostQueue = thread
      delegate = ServiceThreadBound(relay)
      allRoutes = ServiceThreadBound(HTTPRoutes([routes.value, relay]))
    } else {
      let host = SessionHost(server: core, transport: transport, telemetry: telemetry)
      self.host = ServiceThreadBound(host)
      coreThread = nil
      hostQueue = transport
      delegate = ServiceThreadBound(host)
      allRoutes = ServiceThreadBound(HTTPRoutes([routes.value, host]))
    }
    if let snapshots = dataSource as? SnapshotDataSource {
      snapshots.onChange { [weak self] list in self?.reloadList(list) }
    }
  }

  /// The port the server listens on (the one the system picked for port 0); 0 before it
  /// started.
  public var port: Int { transport.port }

  /// The port `/metrics` is served on: ``port`` unless it has one of its own.
  public var metricsPort: Int { metricsTransport?.port ?? transport.port }

  /// Opens the port and starts serving; returns at once. Throws when the port cannot be
  /// opened or the page folder does not exist.
  public func start() throws(TransportError) {
    if let metricsTransport, let metricsListener {
      try metricsTransport.start(delegate: metricsListener.value, responder: routes.value)
    }
    let refusals = routes.value.telemetry.refusals
    do {
      try transport.start(
        delegate: delegate.value, responder: allRoutes.value,
        onRefusal: { reason, address in refusals.record(reason, address: address) })
    } catch {
      if let metricsTransport { Self.stopAndWait(metricsTransport) }
      throw error
    }
    if hasAuthenticator {
      let watch = AccessWatch(server: hostQueue, host: host.value)
      accessWatch.withLock { $0 = watch }
    }
    if let watchedDatabase {
      let watch = ChangeWatch(path: watchedDatabase, server: hostQueue, host: host.value)
      changeWatch.withLock { $0 = watch }
    }
  }

  /// Starts (unless started) and serves until ``stop()``, a graceful shutdown of the
  /// service group, or the task's cancellation; then closes every connection (1001)
  /// after what is queued for it, and returns.
  public func run() async throws {
    if transport.port == 0 { try start() }
    await withTaskCancellationHandler {
      await withGracefulShutdownHandler {
        await transport.waitUntilStopped()
        await coreThread?.waitUntilStopped()
        accessWatch.withLock { $0?.cancel() }
        await changeWatch.withLock { $0 }?.stop()
      } onGracefulShutdown: { [transport] in
        transport.requestStop()
      }
    } onCancel: { [transport] in
      transport.requestStop()
    }
    await metricsTransport?.stop()
  }

  /// Stops gracefully and returns once every connection is closed. Not from the
  /// data source (it runs on the server's thread).
  public func stop() async {
    await transport.stop()
    await coreThread?.waitUntilStopped()
    accessWatch.withLock { $0?.cancel() }
    await changeWatch.withLock { $0 }?.stop()
    await metricsTransport?.stop()
  }

  /// Stops `server` and blocks until it has: for a start that failed halfway, which
  /// cannot wait asynchronously.
  private static func stopAndWait(_ server: WebSocketServer) {
    let stopped = DispatchSemaphore(value: 0)
    Task {
      await server.stop()
      stopped.signal()
    }
    stopped.wait()
  }

  // MARK: - Changes from the app

  /// The app's data for `list` changed (`reloadData`): the list is read again, and every
  /// viewer gets the difference as one diff. Any thread; returns at once.
  public func reloadList(_ list: String) {
    let host = host
    hostQueue.perform { host.value.listChanged(list, edits: nil) }
  }

  /// The app inserted, deleted, moved or reloaded rows of `list`, by id
  /// (`performBatchUpdates` with `insertRows`, `deleteRows`, `moveRow`, `reloadRows`):
  /// every viewer gets one diff, made without reading the list again. Edits that do not
  /// fit what viewers have make the server read the list instead. Any thread.
  public func performBatchUpdates(in list: String, _ edits: [RowEdit]) {
    let host = host
    hostQueue.perform { host.value.listChanged(list, edits: edits) }
  }
}

/// A value that may be handed to another thread only to be used on the service thread,
/// where its own checks run.
struct ServiceThreadBound<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
