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
/// Several service threads (`tableweb serve --service-threads`) are several servers, one
/// ``Lane`` each, made by ``lanes(configuration:count:)``: each its own context and
/// thread, numbering their connections apart and counting them against one set of limits.
/// The first listens on the port; it admits each socket it accepts against the limits and
/// hands every n-th to the next lane, which adopts it into its own context
/// (`lws_adopt_socket_vhost`), so that each thread reads and writes its share of the
/// connections. (With `LWS_SERVER_OPTION_ALLOW_LISTEN_SHARE`, lws 4.1.6 still failed to
/// bind a second context to the port: it appears to set `SO_REUSEPORT` only for a context
/// of several threads, which `LWS_MAX_SMP 1` rules out.)
///
/// Thread-safe where stated (`start`, `perform`, `requestStop`, `stop`, `port`); the rest
/// is confined to the service thread and checks it.
package final class WebSocketServer: @unchecked Sendable {
  public let configuration: Configuration

  /// Which of the server's service threads this one is, and what they share.
  package struct Lane: Sendable {
    /// 0 for the first, which binds the port; the others bind the port it bound.
    public let index: Int
    /// How many service threads listen on the port.
    public let count: Int
    /// Every service thread's connections, counted together.
    let limits: LockedValue<ConnectionLimits>
  }
  /// This thread's place among the server's service threads.
  public let lane: Lane

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
    /// Threads waking the service thread (`lws_cancel_service`, outside the lock) now: the
    /// context is destroyed only once there are none.
    var wakers = 0
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
  /// Lane `i` of `n` numbers its connections `i + 1`, `i + 1 + n`, …: apart from every
  /// other lane's, and telling which lane holds a connection (``laneIndex(of:count:)``).
  var nextConnectionNumber: UInt64
  private var stopDeadline: ContinuousClock.Instant?
  /// The context while the service thread runs it, and the idle sweep's timer.
  var serviceContext: OpaquePointer?
  private var idleSweepTimer: IdleSweepTimer?
  /// The other lanes, on the first (which hands them sockets), and the lane the next
  /// accepted socket goes to (WebSocketServer+Lanes).
  var otherLanes: [WebSocketServer] = []
  var nextLane = 0
  /// The admission of the socket being adopted, while `lws_adopt_socket_vhost` runs.
  var adoptedAdmission: Int?
  /// Connections whose queues are written after this turn of the loop (+Flush).
  var connectionsToFlush: [ConnectionID] = []
  /// Text frames handed to lws on this thread, and the `lws_write` calls that took them:
  /// fewer calls than frames when frames that waited together went in one write.
  private(set) var written = (frames: 0, writes: 0)

  /// One `lws_write` took `frames` text frames.
  func countWrite(of frames: Int) {
    written.frames += frames
    written.writes += 1
  }
  let upgradePolicy: UpgradePolicy
  /// Which writes under ``apiPathPrefix`` are taken (WebSocketServer+HTTP).
  let writePolicy: WritePolicy
  /// Who holds a connection, by address, on every service thread (WebSocketServer+Limits).
  var limits: LockedValue<ConnectionLimits> { lane.limits }
  let limitSettings: ConnectionLimits.Settings
  /// Told of every connection refused by a limit, and why (for metrics and logs).
  var onRefusal: (@Sendable (_ reason: ConnectionRefusal, _ address: String) -> Void)?

  /// One service thread, alone on its port.
  public convenience init(configuration: Configuration) {
    self.init(
      configuration: configuration,
      lane: Lane(
        index: 0, count: 1, limits: LockedValue(ConnectionLimits(Self.limitSettings(configuration)))
      ))
  }

  private init(configuration: Configuration, lane: Lane) {
    self.configuration = configuration
    self.lane = lane
    limitSettings = Self.limitSettings(configuration)
    nextConnectionNumber = UInt64(lane.index + 1)
    let origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
    upgradePolicy = UpgradePolicy(
      origins: origins, otherProtocolNames: [ContextResources.httpProtocolName],
      hosts: HostPolicy(
        listeningOn: configuration.host, allowedHosts: configuration.allowedHosts))
    writePolicy = WritePolicy(origins: origins)
  }

  /// `count` service threads for one port, sharing its connection limits: start the first,
  /// then the others (``start(delegate:responder:onRefusal:)`` binds them to the first's
  /// port).
  public static func lanes(configuration: Configuration, count: Int) -> [WebSocketServer] {
    precondition(count >= 1, "a server needs a service thread")
    let limits = LockedValue(ConnectionLimits(limitSettings(configuration)))
    let lanes = (0..<count).map {
      WebSocketServer(
        configuration: configuration, lane: Lane(index: $0, count: count, limits: limits))
    }
    lanes[0].otherLanes = Array(lanes.dropFirst())
    return lanes
  }

  /// Which of `count` lanes holds `connection`.
  public static func laneIndex(of connection: ConnectionID, count: Int) -> Int {
    Int((connection.rawValue &- 1) % UInt64(count))
  }

  private static func limitSettings(_ configuration: Configuration) -> ConnectionLimits.Settings {
    .init(
      maxConnections: configuration.maxConnections,
      maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
      maxSendingHeadersPerAddress: configuration.maxPendingHeadersPerAddress,
      headerTimeout: .seconds(configuration.headerTimeoutSeconds),
      trustedProxies: Set(configuration.trustedProxies.map { IPAddress.normalized($0) ?? $0 }))
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
    try start(delegate: delegate, responder: responder, port: nil, onRefusal: onRefusal)
  }

  /// ``start(delegate:responder:onRefusal:)`` on `port` instead of the configured one (the
  /// port the first lane bound, for the others).
  package func start(
    delegate: any ConnectionDelegate, responder: (any HTTPResponder)?, port: Int?,
    onRefusal: (@Sendable (_ reason: ConnectionRefusal, _ address: String) -> Void)?
  ) throws(TransportError) {
    let port = port ?? configuration.port
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
    info.port = Int32(port)
    info.iface = resources.interface
    info.protocols = UnsafePointer(resources.protocols)
    info.mounts = resources.mountCount > 0 ? UnsafePointer(resources.mount) : nil
    info.extensions = UnsafePointer(resources.extensions)
    info.retry_and_idle_policy = UnsafePointer(resources.retryPolicy)
    info.options = tableweb_lws_option_validate_utf8
    if !configuration.host.contains(":") { info.options |= tableweb_lws_option_disable_ipv6 }
    // Only the first lane listens; the others adopt the sockets it hands them.
    if lane.index > 0 { info.port = tableweb_lws_context_port_no_listen }
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
      throw .cannotListen(host: configuration.host, port: port)
    }
    let vhost = lws_get_vhost_by_name(context, "default")
    let boundPort = lane.index > 0 ? port : vhost.map { Int(lws_get_vhost_listen_port($0)) } ?? port
    shared.withLock {
      $0.context = ContextHandle(pointer: context)
      $0.port = boundPort
      $0.lifecycle = .running
    }
    let thread = Thread { [self] in serve() }
    thread.name = lane.count > 1 ? "tableweb-lws-\(lane.index)" : "tableweb-lws"
    thread.start()
  }

  /// Runs `work` on the service thread, soon, in the order `perform` was called: how other
  /// threads (a timer, a store callback) reach the delegate's state and
  /// `MessageTransport`. Any thread; from the service thread itself it runs after the
  /// current callback. Work handed over after the server stopped is dropped.
  public func perform(_ work: @escaping @Sendable () -> Void) {
    _ = enqueue(work)
  }

  /// ``perform(_:)``, saying whether the work was taken (false once the server stopped).
  func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
    let (taken, wake) = shared.withLock { state -> (Bool, ContextHandle?) in
      guard let context = state.context,
        state.lifecycle == .running || state.lifecycle == .stopping
      else { return (false, nil) }
      state.pendingWork.append(work)
      // One wake-up per batch: later work rides along until the service thread takes it.
      guard state.pendingWork.count == 1 else { return (true, nil) }
      state.wakers += 1
      return (true, context)
    }
    if let wake {
      // Woken outside the lock: woken under it, the service thread would wait at once in
      // `runPendingWork()` for the lock this thread still holds, for as long as this thread
      // then waits to run again (a search thread at nice 10 on a busy machine: up to 144 ms
      // in `tablebench search`, everyone's commands held meanwhile).
      lws_cancel_service(wake.pointer)
      shared.withLock { $0.wakers -= 1 }
    }
    return taken
  }

  /// How many WebSocket connections this service thread holds. Any thread but the service
  /// thread, while the server runs (for tests and diagnostics).
  public func openConnectionCount() async -> Int {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
      perform { [self] in continuation.resume(returning: connections.count) }
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
    // A wake-up under way (see `enqueue(_:)`) ends before the context goes; none can
    // start now that it is nil.
    while shared.withLock({ $0.wakers }) > 0 { sched_yield() }
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
