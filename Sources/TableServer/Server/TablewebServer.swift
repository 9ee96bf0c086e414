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
/// // Until Ctrl-C or SIGTERM, then every connection is closed gracefully.
/// try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigint, .sigterm]).run()
/// ```
///
/// When your data changes, say so from any thread or task; every viewer of the list gets
/// one diff, exactly as for a browser's edit:
/// - ``reloadList(_:)`` (`reloadData`): the list is read again and diffed;
/// - ``performBatchUpdates(in:_:)``: the rows you inserted, deleted, moved or reloaded,
///   by id, without reading the list again;
/// - ``SnapshotDataSource/apply(_:)``: a whole new snapshot of a list, diffed for you.
///
/// A `Service` of swift-service-lifecycle, with ``run()`` its one entry: run it in a
/// `ServiceGroup` for a graceful shutdown on SIGTERM and Ctrl-C. Which thread runs your
/// data source: docs/threading.md.
public final class TablewebServer: Service, Sendable {
  /// Everything that can be set about a server, on one value: every setting is a `var`
  /// with a default, so set only what differs.
  ///
  /// ```swift
  /// var configuration = TablewebServer.Configuration(port: 0)
  /// configuration.isReadOnly = true
  /// configuration.logger = logger
  /// ```
  public struct Configuration: Sendable {
    // MARK: Where it listens

    /// An IP address of this machine, or `localhost`.
    public var host = "127.0.0.1"
    /// 0 lets the system pick a free port: read it back from ``TablewebServer/port``.
    public var port = 8080
    /// Origins (`scheme://host[:port]`) allowed to connect besides the server's own.
    public var allowedOrigins: [String] = []
    /// Host names (no port) answered besides `localhost` and loopback addresses: a server
    /// on a loopback ``host`` answers only those (403 otherwise, against DNS rebinding),
    /// and names given here make a server on any address check too. Behind a proxy that
    /// passes the browser's `Host`, the public name goes here.
    public var allowedHosts: [String] = []
    /// A folder to serve as the page instead of the built-in one (for working on it); the
    /// command line's `--public`.
    public var publicDirectory: String?

    // MARK: Messages, screens and commands

    /// The largest message a client may send, in bytes.
    public var maxMessageSize = 64 * 1024
    /// Offer permessage-deflate (costs about 300 KiB of zlib state per connection).
    public var permessageDeflate = false
    /// Refuse every command that changes data (`not_allowed`), and show every list as not
    /// editable.
    public var isReadOnly = false
    /// How many rows of each section a screen carries before the client fetches more.
    public var screenRowLimit = 300
    /// The most rows one `fetch` returns.
    public var fetchLimit = 500
    /// Commands a connection may send in a burst (`rate_limited` past it).
    public var burstSize: Double = 100
    /// Commands a connection may send per second after a burst.
    public var commandsPerSecond: Double = 50
    /// A connection whose messages are refused by the rate limit this many times in a row
    /// is closed.
    public var refusalsBeforeClose = 50
    /// Lists with more rows than this, from a data source that declares windows
    /// (``DataSourceCapabilities/windows``), are held as their first screen only and
    /// never read whole.
    public var windowedListThreshold = 10_000

    // MARK: Connections

    /// Seconds a request's headers may take to arrive; slower ones are dropped.
    public var headerTimeoutSeconds = 5
    /// Connections held at once; past it, HTTP 503.
    public var maxConnections = 20_000
    /// Connections one address may hold at once; past it, HTTP 503.
    public var maxConnectionsPerAddress = 1_000
    /// Connections one address may have still sending their first request's headers.
    public var maxPendingHeadersPerAddress = 32
    /// Reverse proxies whose `X-Forwarded-For` is believed (see
    /// `WebSocketServer.Configuration.trustedProxies`).
    public var trustedProxies: [String] = []
    /// Whether the page built in brings its service worker, which answers a second visit
    /// from the browser's cache (see `WebSocketServer.Configuration.pageWorker`).
    public var pageWorker = true

    // MARK: Operations

    /// Count and serve `GET /metrics` (Prometheus text) on the same port; false counts
    /// nothing (the log lines remain).
    public var servesMetrics = true
    /// Serve `GET /metrics` on this address and ``metricsPort`` instead of the main port
    /// (nil: the main port). Only an IP address or `localhost`.
    public var metricsHost: String?
    /// Serve `GET /metrics` on this port instead of the main one (0 picks a free one;
    /// read it back from ``TablewebServer/metricsPort``).
    public var metricsPort: Int?
    /// What `GET /healthz` checks: true when the server can read its data (the database
    /// file, say). Called on a health-check thread (docs/threading.md), one check at a
    /// time (requests during a check share its answer), so it may wait on a network.
    public var healthCheck: @Sendable () -> Bool = { true }
    /// Where everything the server has to say goes: connections, refused commands,
    /// start and stop, and what went wrong without a client to tell (a data source that
    /// failed while a change was sent out).
    public var logger = Logger(label: "tableweb")

    // MARK: Threads

    /// Whether the core thread — the thread that runs the session core and so the data
    /// source (docs/threading.md) — is a thread of its own rather than the main
    /// listener's libwebsockets service thread: then a slow data source (a network round
    /// trip per command) stalls the commands behind it but not the connections' pings,
    /// writes and static files. nil: as the data source declares
    /// (``DataSourceCapabilities/needsOwnThread``; true for a ``StoreDataSource`` on
    /// PostgreSQL).
    public var runsCoreOnOwnThread: Bool?
    /// How many libwebsockets service threads read and write the connections, each with
    /// its own context, all listening on ``port`` (docs/threading.md): more than one lets a
    /// change to many viewers be written on several cores. More than one puts the core on
    /// a thread of its own, whatever ``runsCoreOnOwnThread`` says. The command line's
    /// `--service-threads`.
    public var serviceThreads = 1

    /// A configuration with every default, listening on `host` and `port`.
    public init(host: String = "127.0.0.1", port: Int = 8080) {
      self.host = host
      self.port = port
    }

    /// The session core's share of the settings.
    var sessionServer: SessionServerConfiguration {
      var core = SessionServerConfiguration(
        isReadOnly: isReadOnly, screenRowLimit: screenRowLimit, fetchLimit: fetchLimit,
        burstSize: burstSize, commandsPerSecond: commandsPerSecond,
        refusalsBeforeClose: refusalsBeforeClose)
      core.windowedListThreshold = windowedListThreshold
      return core
    }
  }

  public let configuration: Configuration
  /// The main listener's service threads, by lane (one unless
  /// ``Configuration/serviceThreads`` says more).
  private let transports: [WebSocketServer]
  /// The first service thread: it binds the port, the others share it.
  private var transport: WebSocketServer { transports[0] }
  /// The listener of `/metrics` alone, when it has a port of its own.
  private let metricsTransport: WebSocketServer?
  /// The core thread: the main listener's service thread, or ``coreThread``.
  let hostQueue: any WorkQueue
  /// The session host, used only on the core thread (checked on every access).
  private let host: ThreadBound<SessionHost>
  /// The core thread as a thread of its own, when the data source needs one (PostgreSQL):
  /// nil runs the core on the service thread (see `CoreRelay`).
  private let coreThread: CoreThread?
  /// Where searches are read, when the data source declares a search reader.
  private let searchThread: SearchThread?
  /// What ``start()`` hands to the listeners' service threads before they begin, made on
  /// the thread that made the server: taken once, under the lock, by ``start()``.
  private let handover: LockedValue<Handover?>
  // Unchecked: it moves once, from the thread that made the server to the listeners
  // before their threads begin (start() takes it under the lock); after that the host is
  // reached only through `host`, which checks its thread.
  private struct Handover: @unchecked Sendable {
    /// The transport's delegate: the session host itself, or the relay that puts it on
    /// a thread of its own.
    let delegate: any ConnectionDelegate
    /// `/healthz` and `/metrics`, for the metrics listener.
    let routes: OperatorRoutes
    /// Those and the session host's `/api/commands`, on the main port.
    let allRoutes: HTTPRoutes
    let metricsListener: MetricsListener?
    let host: SessionHost
  }
  private let refusals: ConnectionRefusalLog
  /// Told the bound port once the server listens.
  private let onServerRunning: @Sendable (_ port: Int) async -> Void
  /// Rechecks access every second while serving, when there is an authenticator.
  private let accessWatch: LockedValue<AccessWatch?> = LockedValue(nil)
  private let hasAuthenticator: Bool
  /// Watches the database for other processes' commits, when the data source declares one.
  private let changeWatch: LockedValue<ChangeWatch?> = LockedValue(nil)
  private let watchedDatabase: String?

  /// - Parameters:
  ///   - dataSource: your lists. Called only on the core thread (docs/threading.md). What
  ///     it offers beyond ``TableDataSource`` is what its
  ///     ``TableDataSource/capabilities`` declare.
  ///   - sessionStorage: where sessions' navigation stacks are kept; by default in memory
  ///     (they survive a reconnect, not a restart).
  ///   - authenticator: who may connect and with which role (see ``Authenticator``);
  ///     nil lets everyone in. Revocations it reports close connections within 2 s.
  ///   - onServerRunning: told the bound port once the server listens (port 0 picks one):
  ///     for tests, and for printing the address.
  ///   - configuration: the port, limits and the rest (``TablewebServer/Configuration``).
  public init(
    dataSource: some TableDataSource, sessionStorage: (any SessionStorage)? = nil,
    authenticator: (any Authenticator)? = nil,
    configuration: Configuration = Configuration(),
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
  ) {
    hasAuthenticator = authenticator != nil
    self.configuration = configuration
    self.onServerRunning = onServerRunning
    var transportConfiguration = WebSocketServer.Configuration(
      host: configuration.host, port: configuration.port,
      publicDirectory: configuration.publicDirectory,
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
    precondition(
      configuration.serviceThreads >= 1,
      "serviceThreads must be at least 1, not \(configuration.serviceThreads)")
    let transports = WebSocketServer.lanes(
      configuration: transportConfiguration, count: configuration.serviceThreads)
    self.transports = transports
    var metricsListener: MetricsListener?
    if configuration.servesMetrics, let metricsPort = configuration.metricsPort {
      let metrics = WebSocketServer(
        configuration: .init(
          host: configuration.metricsHost ?? configuration.host, port: metricsPort,
          dynamicPaths: [OperatorRoutes.metrics], servesPage: false,
          allowedHosts: configuration.allowedHosts))
      metricsTransport = metrics
      metricsListener = MetricsListener(transport: metrics)
    } else {
      metricsTransport = nil
    }
    let telemetry = ServerTelemetry(
      logger: configuration.logger, recordsMetrics: configuration.servesMetrics)
    refusals = telemetry.refusals
    let routes = OperatorRoutes(
      telemetry: telemetry, healthCheck: configuration.healthCheck,
      servesMetrics: configuration.servesMetrics)
    var coreConfiguration = configuration.sessionServer
    let searchReader = dataSource.keepsVersions ? dataSource.capabilities.searchReader : nil
    coreConfiguration.readsSearchesAside = searchReader != nil
    let core = SessionServer(
      dataSource: dataSource, sessionStorage: sessionStorage ?? MemorySessionStorage(),
      configuration: coreConfiguration, authenticator: authenticator,
      logger: configuration.logger)
    // What the data source declared, not what it happens to conform to.
    let capabilities = core.capabilities
    watchedDatabase = capabilities.watchedDatabase
    let host: SessionHost
    let delegate: any ConnectionDelegate
    let commands: any HTTPResponder
    if configuration.serviceThreads > 1
      || configuration.runsCoreOnOwnThread ?? capabilities.needsOwnThread
    {
      // Each command is a network round trip: it waits on a thread of its own, not on the
      // one that reads and writes every connection. With several service threads, the
      // one core hands each its connections' frames.
      let thread = CoreThread()
      let relay = CoreRelay(transports: transports, core: thread)
      host = SessionHost(server: core, transport: relay, telemetry: telemetry)
      host.coreQueue = thread
      relay.attach(host)
      coreThread = thread
      hostQueue = thread
      delegate = relay
      commands = relay
    } else {
      host = SessionHost(server: core, transport: transports[0], telemetry: telemetry)
      coreThread = nil
      hostQueue = transports[0]
      delegate = host
      commands = host
    }
    self.host = ThreadBound(host, on: hostQueue)
    if let searchReader {
      // Searches read on a thread (and connection) of their own; the results go back to
      // the core thread, which answers (docs/threading.md).
      let thread = SearchThread(makeReader: searchReader)
      let bound = self.host
      let queue = hostQueue
      host.readSearch = { query, list, base in
        thread.read(query, in: list, diffedFrom: base) { read in
          queue.perform { bound.value.searchRead(query, in: list, read: read) }
        }
      }
      host.releaseSearches = { thread.release($0) }
      searchThread = thread
    } else {
      searchThread = nil
    }
    handover = LockedValue(
      Handover(
        delegate: delegate, routes: routes,
        allRoutes: HTTPRoutes([routes, commands]),
        metricsListener: metricsListener, host: host))
    if let snapshots = capabilities.snapshots {
      snapshots.onChange { [weak self] list in self?.reloadList(list) }
    }
  }

  /// The port the server listens on (the one the system picked for port 0); 0 before it
  /// started.
  public var port: Int { transport.port }

  /// How many WebSocket connections each service thread holds, by lane.
  package func connectionsPerServiceThread() async -> [Int] {
    var counts: [Int] = []
    for lane in transports { counts.append(await lane.openConnectionCount()) }
    return counts
  }

  /// The port `/metrics` is served on: ``port`` unless it has one of its own.
  public var metricsPort: Int { metricsTransport?.port ?? transport.port }

  /// Opens the port and starts serving, then tells `onServerRunning` the bound port and
  /// returns: for tests, which then talk to ``port``; an app calls ``run()``, which starts
  /// unless started. Throws when the port cannot be opened or the page folder does not
  /// exist. Call once.
  public func start() async throws(TransportError) {
    guard let handover = handover.withLock({ $0.take() }) else {
      preconditionFailure("TablewebServer.start called twice")
    }
    if let metricsTransport, let metricsListener = handover.metricsListener {
      try metricsTransport.start(delegate: metricsListener, responder: handover.routes)
    }
    let refusals = refusals
    var started: [WebSocketServer] = []
    do {
      for lane in transports {
        // The first binds the port (0 picks one); the others bind the same.
        try lane.start(
          delegate: handover.delegate, responder: handover.allRoutes,
          port: started.isEmpty ? nil : transport.port,
          onRefusal: { reason, address in refusals.record(reason, address: address) })
        started.append(lane)
      }
    } catch {
      for lane in started { await lane.stop() }
      await metricsTransport?.stop()
      throw error
    }
    if hasAuthenticator {
      let watch = AccessWatch(server: hostQueue, host: handover.host)
      accessWatch.withLock { $0 = watch }
    }
    if let watchedDatabase {
      let watch = ChangeWatch(
        path: watchedDatabase, server: hostQueue, host: handover.host,
        logger: configuration.logger)
      changeWatch.withLock { $0 = watch }
    }
    await onServerRunning(transport.port)
  }

  /// The one entry, as a swift-service-lifecycle `Service`: starts (unless ``start()``
  /// did), serves until a graceful shutdown of the service group (SIGTERM, SIGINT), the
  /// task's cancellation or ``stop()``; then closes every connection (1001) after what is
  /// queued for it, and returns.
  public func run() async throws {
    if handover.withLock({ $0 != nil }) { try await start() }
    await withTaskCancellationHandler {
      await withGracefulShutdownHandler {
        for lane in transports { await lane.waitUntilStopped() }
        await coreThread?.waitUntilStopped()
        await searchThread?.stop()
        accessWatch.withLock { $0?.cancel() }
        await changeWatch.withLock { $0 }?.stop()
      } onGracefulShutdown: { [transports] in
        for lane in transports { lane.requestStop() }
      }
    } onCancel: { [transports] in
      for lane in transports { lane.requestStop() }
    }
    await metricsTransport?.stop()
  }

  /// Stops gracefully and returns once every connection is closed. Not from the
  /// data source (it runs on the core thread).
  public func stop() async {
    for lane in transports { lane.requestStop() }
    for lane in transports { await lane.waitUntilStopped() }
    await coreThread?.waitUntilStopped()
    await searchThread?.stop()
    accessWatch.withLock { $0?.cancel() }
    await changeWatch.withLock { $0 }?.stop()
    await metricsTransport?.stop()
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

// MARK: - Presence

extension TablewebServer {
  /// Who shows `list` on this server now (Presence): each session whose top screen or
  /// split-view sidebar shows it, in the order they came, with its name, role and what it
  /// is doing (`Presence.Viewer.isYou` is false). At most `Presence.viewerLimit` are
  /// listed; `Presence.count` says how many there are. Any task.
  ///
  /// ```swift
  /// let here = await server.presence(of: "groceries")
  /// print(here.viewers.map(\.name))  // ["Ann", "Guest 2"]
  /// ```
  public func presence(of list: String) async -> Presence {
    let host = host
    return await withCheckedContinuation { (continuation: CheckedContinuation<Presence, Never>) in
      let answer = PresenceAnswer(continuation, nobody: Presence(list: list, viewers: []))
      hostQueue.perform {
        let found = host.value.server?.presence(of: list) ?? (viewers: [], count: 0)
        answer.resume(Presence(list: list, viewers: found.viewers, count: found.count))
      }
    }
  }
}

/// Answers `TablewebServer/presence(of:)` once: with what the core found, or with nobody
/// when a server not running dropped the work (and with it this).
private final class PresenceAnswer: @unchecked Sendable {
  // Unchecked: used by the work item, then released with it; never by two threads at once.
  private var continuation: CheckedContinuation<Presence, Never>?
  private let nobody: Presence

  init(_ continuation: CheckedContinuation<Presence, Never>, nobody: Presence) {
    self.continuation = continuation
    self.nobody = nobody
  }

  func resume(_ presence: Presence) {
    continuation?.resume(returning: presence)
    continuation = nil
  }

  deinit { continuation?.resume(returning: nobody) }
}

extension TablewebServer.Configuration {
  @available(*, deprecated, renamed: "publicDirectory")
  public var pageDirectory: String? {
    get { publicDirectory }
    set { publicDirectory = newValue }
  }
}
