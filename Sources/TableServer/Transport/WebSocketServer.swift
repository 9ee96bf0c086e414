import CWebsockets
import Foundation
import TableModel

/// The one libwebsockets context of `tableweb serve`: one port serving the static page
/// folder and the WebSocket endpoint `/ws` (subprotocol `tableweb.v1`).
///
/// libwebsockets runs every callback on one thread, the *service thread*, which this
/// server starts. The connection delegate is called there, and `MessageTransport`
/// methods must be called there too; other threads hand work over with ``perform(_:)``.
///
/// ```swift
/// let server = WebSocketServer(configuration: .init(port: 0))
/// try server.start(delegate: sessions)
/// print(server.port)
/// await server.stop()
/// ```
///
/// Thread-safe where stated (`start`, `perform`, `requestStop`, `stop`, `port`); the rest
/// is confined to the service thread and checks it.
package final class WebSocketServer: @unchecked Sendable {
  public let configuration: Configuration

  /// The lws context, handed between threads only to be woken (`lws_cancel_service` is
  /// the one lws call safe from any thread) and to reach the service thread.
  private struct ContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  /// What any thread may touch, under one lock.
  private struct Shared {
    enum Lifecycle { case idle, running, stopping, stopped }
    var lifecycle = Lifecycle.idle
    /// Valid while `lifecycle` is running or stopping; nil once destroyed.
    var context: ContextHandle?
    var pendingWork: [@Sendable () -> Void] = []
    var stopWaiters: [CheckedContinuation<Void, Never>] = []
    var port = 0
  }
  private let shared = LockedValue(Shared())
  private let serviceThread = ThreadChecker("WebSocketServer")

  // Service-thread state (internal for the callbacks in WebSocketServer+Callbacks.swift).
  private var resources: ContextResources?
  var delegate: (any ConnectionDelegate)?
  /// Answers ``Configuration/dynamicPaths``; kept until the server has stopped.
  var responder: (any HTTPResponder)?
  var connections: [ConnectionID: WebSocketConnection] = [:]
  /// HTTP requests to the API paths being read or answered, by lws connection.
  var httpExchanges: [OpaquePointer: HTTPExchange] = [:]
  var nextConnectionNumber: UInt64 = 1
  private var stopDeadline: ContinuousClock.Instant?
  /// The context while the service thread runs it, and the idle sweep's timer.
  private var serviceContext: OpaquePointer?
  private var idleSweepTimer: IdleSweepTimer?
  /// Connections whose queues are written after this turn of the loop (+Flush).
  var connectionsToFlush: [ConnectionID] = []
  let upgradePolicy: UpgradePolicy
  /// Which writes under ``apiPathPrefix`` are taken (WebSocketServer+HTTP).
  let writePolicy: WritePolicy
  /// Who holds a connection, by address (WebSocketServer+Limits).
  var limits: ConnectionLimits
  /// Told of every connection refused by a limit, and why (for metrics and logs).
  var onRefusal: (@Sendable (_ reason: ConnectionRefusal, _ address: String) -> Void)?

  public init(configuration: Configuration) {
    self.configuration = configuration
    limits = ConnectionLimits(
      .init(
        maxConnections: configuration.maxConnections,
        maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
        maxSendingHeadersPerAddress: configuration.maxPendingHeadersPerAddress,
        headerTimeout: .seconds(configuration.headerTimeoutSeconds),
        trustedProxies: Set(configuration.trustedProxies.map { IPAddress.normalized($0) ?? $0 })))
    let origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
    upgradePolicy = UpgradePolicy(
      origins: origins, otherProtocolNames: [ContextResources.httpProtocolName],
      hosts: HostPolicy(
        listeningOn: configuration.host, allowedHosts: configuration.allowedHosts))
    writePolicy = WritePolicy(origins: origins)
  }

  deinit {
    precondition(
      shared.withLock { $0.lifecycle != .running && $0.lifecycle != .stopping },
      "a WebSocketServer was released while running: stop it first")
  }

  /// The port the server listens on: the configured one, or the one the system picked for
  /// port 0. Zero before ``start(delegate:responder:onRefusal:)``. Any thread.
  public var port: Int { shared.withLock { $0.port } }

  /// Whether the caller runs on the libwebsockets service thread.
  public var isOnServiceThread: Bool {
    serviceThread.isOwnerThread
  }

  /// Opens the port and starts the service thread. Throws when the folder is missing or
  /// the port cannot be opened. `delegate` is kept until the server has stopped;
  /// `onRefusal` is told, on the service thread, of every connection a limit refused.
  ///
  /// Call once, from any thread but the service thread.
  public func start(
    delegate: any ConnectionDelegate, responder: (any HTTPResponder)? = nil,
    onRefusal: (@Sendable (_ reason: ConnectionRefusal, _ address: String) -> Void)? = nil
  ) throws(TransportError) {
    precondition(shared.withLock { $0.lifecycle == .idle }, "WebSocketServer.start called twice")
    // nil serves the page built into the library, from memory (WebSocketServer+HTTP).
    var folder: String?
    if configuration.servesPage, let publicDirectory = configuration.publicDirectory {
      var isDirectory: ObjCBool = false
      let path = URL(fileURLWithPath: publicDirectory).standardizedFileURL.path
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        isDirectory.boolValue
      else { throw .publicDirectoryMissing(path) }
      folder = path
    }

    let resources = ContextResources(configuration: configuration, publicDirectory: folder)
    self.resources = resources
    self.delegate = delegate
    self.responder = responder
    self.onRefusal = onRefusal
    LibwebsocketsLog.routeToLogger()

    var info = lws_context_creation_info()
    info.port = Int32(configuration.port)
    info.iface = resources.interface
    info.protocols = UnsafePointer(resources.protocols)
    info.mounts = resources.mountCount > 0 ? UnsafePointer(resources.mount) : nil
    info.extensions = UnsafePointer(resources.extensions)
    info.retry_and_idle_policy = UnsafePointer(resources.retryPolicy)
    info.options = tableweb_lws_option_validate_utf8
    if !configuration.host.contains(":") { info.options |= tableweb_lws_option_disable_ipv6 }
    info.user = Unmanaged.passUnretained(self).toOpaque()
    // Every request's headers are parsed into one of these. lws allocates them as
    // connections need them and frees them when the headers are done, so a pool as large
    // as the connection limit costs nothing until used, and no connection ever waits for
    // one behind connections still sending theirs (a smaller pool let 80 slow clients
    // shut everyone out).
    info.max_http_header_pool2 = UInt32(clamping: configuration.maxConnections + 16)
    // Headers must be in this long after the accept: lws's deadline for holding one of
    // those tables is absolute, not renewed by each byte.
    info.timeout_secs_ah_idle = UInt32(clamping: max(1, configuration.headerTimeoutSeconds))
    info.timeout_secs = 10

    guard let context = lws_create_context(&info) else {
      self.resources = nil
      self.delegate = nil
      self.responder = nil
      throw .cannotListen(host: configuration.host, port: configuration.port)
    }
    let vhost = lws_get_vhost_by_name(context, "default")
    let boundPort = vhost.map { Int(lws_get_vhost_listen_port($0)) } ?? configuration.port
    shared.withLock {
      $0.context = ContextHandle(pointer: context)
      $0.port = boundPort
      $0.lifecycle = .running
    }
    let thread = Thread { [self] in serve() }
    thread.name = "tableweb-lws"
    thread.start()
  }

  /// Runs `work` on the service thread, soon, in the order `perform` was called: how other
  /// threads (a timer, a store callback) reach the delegate's state and
  /// `MessageTransport`. Any thread; from the service thread itself it runs after the
  /// current callback. Work handed over after the server stopped is dropped.
  public func perform(_ work: @escaping @Sendable () -> Void) {
    shared.withLock {
      guard let context = $0.context, $0.lifecycle == .running || $0.lifecycle == .stopping
      else { return }
      $0.pendingWork.append(work)
      // One wake-up per batch: later work rides along until the service thread takes it.
      if $0.pendingWork.count == 1 { lws_cancel_service(context.pointer) }
    }
  }

  /// Starts a graceful stop: every client gets a close frame (1001, going away) after
  /// what is queued for it, then the delegate's `ConnectionDelegate.transportDidStop()`.
  /// Returns at once. Any thread, but not from a signal handler (it takes a lock): let the
  /// handler wake a thread that calls it.
  public func requestStop() {
    perform { [self] in beginStopping() }
  }

  /// Stops gracefully (see ``requestStop()``) and returns once the service thread is done.
  /// Not from the service thread.
  public func stop() async {
    precondition(!isOnServiceThread, "stop() would wait for its own thread")
    requestStop()
    await waitUntilStopped()
  }

  /// Returns once the server has stopped (at once if it never started). Any thread.
  public func waitUntilStopped() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = shared.withLock { state -> Bool in
        guard state.lifecycle == .running || state.lifecycle == .stopping else { return true }
        state.stopWaiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  // MARK: - The service thread

  private func serve() {
    serviceThread.bindToCurrentThread()
    // The context stays valid until this thread destroys it below.
    guard let context = shared.withLock({ $0.context })?.pointer else { return }
    serviceContext = context
    let timer = IdleSweepTimer(server: self)
    idleSweepTimer = timer
    scheduleIdleSweep(context, timer: timer)
    while true {
      if lws_service(context, 0) < 0 { break }
      flushWrites()
      if let stopDeadline, connections.isEmpty || ContinuousClock.now >= stopDeadline { break }
    }
    shared.withLock { state in
      state.context = nil
      state.pendingWork = []
    }
    // Connections still open are closed by the destroy, which reports them to the delegate.
    lws_context_destroy(context)
    serviceContext = nil
    idleSweepTimer = nil
    connections.removeAll()
    delegate?.transportDidStop()
    delegate = nil
    responder = nil
    onRefusal = nil
    resources = nil
    serviceThread.unbind()
    let stopWaiters = shared.withLock { state in
      state.lifecycle = .stopped
      defer { state.stopWaiters = [] }
      return state.stopWaiters
    }
    for waiter in stopWaiters { waiter.resume() }
  }

  /// - Important: Must be called on the service thread (from an lws callback).
  func runPendingWork() {
    precondition(isOnServiceThread, "pending work must run on the service thread")
    let work = shared.withLock { state in
      defer { state.pendingWork = [] }
      return state.pendingWork
    }
    for item in work { item() }
  }

  /// Sets the idle sweep's timer again, from its own callback.
  func rescheduleIdleSweep() {
    guard let serviceContext, let idleSweepTimer else { return }
    scheduleIdleSweep(serviceContext, timer: idleSweepTimer)
  }

  private func beginStopping() {
    precondition(isOnServiceThread, "beginStopping must run on the service thread")
    guard stopDeadline == nil else { return }
    shared.withLock { $0.lifecycle = .stopping }
    // Peers that do not answer the close within this time are cut off by the destroy.
    stopDeadline = .now + .seconds(2)
    for connection in connections.values {
      close(connection.id, status: LWS_CLOSE_STATUS_GOINGAWAY, reason: "server stopping")
    }
    // Wake the loop again at the deadline, should nothing else happen.
    DispatchQueue.global().asyncAfter(deadline: .now() + 2.05) { [self] in perform {} }
  }
}
