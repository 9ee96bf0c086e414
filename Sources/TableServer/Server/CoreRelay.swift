import TableModel

/// Puts a `SessionHost` on a `CoreThread` of its own, between it and the
/// `WebSocketServer`: the transport's delegate on the service thread, and the host's
/// `MessageTransport` on the core thread.
///
/// Each transport callback is handed to the core thread in the order it came (with what
/// only the service thread can read, the upgrade request and the peer's address, read
/// first); each frame the host sends is handed back to the service thread in the order it
/// was sent, through `WebSocketServer.perform(_:)`, and so is every close. The service
/// thread never waits for the core: a slow database stalls the commands behind it, not
/// the reading, writing, pings and static files of every connection.
///
/// With several service threads (``WebSocketServer/Lane``) the relay is every one's
/// delegate, and hands each connection's frames and close to the thread that holds it
/// (the lane its ``ConnectionID`` names), in order. A frame is one shared, immutable
/// `OutgoingFrame` whichever threads write it. The relay stops the core once the last
/// service thread has stopped.
///
/// Backpressure: the host learns of a full queue later than when it sends, so the relay
/// handles it on the service thread. The frame that did not fit, and every frame for that
/// connection after it, is dropped until the host's fresh screen
/// (`SessionHost.resynchronize(_:)`) replaces the queue — the same rule as on one
/// thread: the fresh screen contains everything dropped.
package final class CoreRelay: ConnectionDelegate, MessageTransport, @unchecked Sendable {
  /// The service threads, by lane.
  private let transports: [WebSocketServer]
  /// Where the host runs.
  public let core: CoreThread
  /// Used only on the core thread; set once, before the transport starts.
  private var host: SessionHost?
  private struct Peer {
    var request: UpgradeRequest
    var address: String?
    var queued = 0
  }
  /// What the core thread may ask of a connection: read on the service thread at open.
  private let peers = LockedValue<[ConnectionID: Peer]>([:])
  /// Each service thread's side of the relay, by lane.
  private let lanes: [LaneSide]
  /// Service threads that have not stopped yet: the core stops after the last.
  private let running: LockedValue<Int>

  /// What one service thread keeps of the relay: used only there.
  private final class LaneSide {
    /// Connections whose queue overflowed and waits for a fresh screen.
    var resynchronizing: Set<ConnectionID> = []
    let thread: ThreadChecker

    init(_ index: Int) {
      thread = ThreadChecker("CoreRelay (service side, lane \(index))")
    }
  }

  public convenience init(transport: WebSocketServer, core: CoreThread) {
    self.init(transports: [transport], core: core)
  }

  /// `transports`: the service threads made by `WebSocketServer.lanes(configuration:count:)`,
  /// in lane order.
  public init(transports: [WebSocketServer], core: CoreThread) {
    precondition(!transports.isEmpty, "a relay needs a service thread")
    self.transports = transports
    self.core = core
    lanes = transports.indices.map { LaneSide($0) }
    running = LockedValue(transports.count)
  }

  /// The service thread that holds `connection`.
  private func transport(of connection: ConnectionID) -> WebSocketServer {
    transports.count == 1
      ? transports[0]
      : transports[WebSocketServer.laneIndex(of: connection, count: transports.count)]
  }

  /// `connection`'s lane, checked to be the calling thread's.
  private func serviceSide(of connection: ConnectionID, _ function: StaticString = #function)
    -> LaneSide
  {
    let lane =
      transports.count == 1
      ? lanes[0] : lanes[WebSocketServer.laneIndex(of: connection, count: transports.count)]
    lane.thread.check(function)
    return lane
  }

  /// The host the relay serves; call once, before the transport starts.
  public func attach(_ host: SessionHost) {
    precondition(self.host == nil, "a CoreRelay serves one host")
    self.host = host
    core.runTogether { [weak self] work, more in
      guard let host = self?.host else {
        for item in work { item() }
        return
      }
      host.runTogether(work.map { item in { item() } }) { count in
        more(count).map { item in { item() } }
      }
    }
  }

  // MARK: - ConnectionDelegate, on the service thread

  public func connectionDidOpen(_ connection: ConnectionID) {
    _ = serviceSide(of: connection)
    let transport = self.transport(of: connection)
    let peer = Peer(
      request: transport.upgradeRequest(of: connection),
      address: transport.peerAddress(of: connection))
    peers.withLock { $0[connection] = peer }
    core.perform { [self] in host?.connectionDidOpen(connection) }
  }

  public func connection(_ connection: ConnectionID, didReceive text: String) {
    _ = serviceSide(of: connection)
    core.perform { [self] in host?.connection(connection, didReceive: text) }
  }

  public func connectionDidSendTooLarge(_ connection: ConnectionID) {
    _ = serviceSide(of: connection)
    core.perform { [self] in host?.connectionDidSendTooLarge(connection) }
  }

  public func connectionDidClose(_ connection: ConnectionID) {
    serviceSide(of: connection).resynchronizing.remove(connection)
    core.perform { [self] in
      host?.connectionDidClose(connection)
      peers.withLock { $0[connection] = nil }
    }
  }

  /// A service thread stopped; after the last, the host lets its core (and database) go on
  /// its thread, which then ends.
  public func transportDidStop() {
    let isLast = running.withLock { running -> Bool in
      running -= 1
      return running == 0
    }
    guard isLast else { return }
    core.perform { [self] in
      host?.transportDidStop()
      host = nil
      core.stop()
    }
  }

  // MARK: - MessageTransport, on the core thread

  /// Hands `frame` to the service thread; true, since whether it fits is known only
  /// there (see the type's note on backpressure).
  public func send(_ frame: OutgoingFrame, to connection: ConnectionID) -> Bool {
    transport(of: connection).perform { [self] in deliver(frame, to: connection) }
    return true
  }

  /// Hands `frame` to each service thread once, with the connections it holds.
  public func send(_ frame: OutgoingFrame, toAll connections: [ConnectionID]) -> Bool {
    guard transports.count > 1 else {
      transports[0].perform { [self] in deliver(frame, toAll: connections) }
      return true
    }
    var byLane = Array(repeating: [ConnectionID](), count: transports.count)
    for connection in connections {
      byLane[WebSocketServer.laneIndex(of: connection, count: transports.count)].append(connection)
    }
    for (lane, held) in byLane.enumerated() where !held.isEmpty {
      transports[lane].perform { [self] in deliver(frame, toAll: held) }
    }
    return true
  }

  public func replaceQueue(of connection: ConnectionID, with frames: [OutgoingFrame]) {
    let transport = self.transport(of: connection)
    transport.perform { [self] in
      serviceSide(of: connection).resynchronizing.remove(connection)
      transport.replaceQueue(of: connection, with: frames)
    }
  }

  public func close(_ connection: ConnectionID, reason: String) {
    let transport = self.transport(of: connection)
    transport.perform { [transport] in transport.close(connection, reason: reason) }
  }

  public func close(_ connection: ConnectionID, code: Int, reason: String) {
    let transport = self.transport(of: connection)
    transport.perform { [transport] in transport.close(connection, code: code, reason: reason) }
  }

  /// As the service thread last saw it, after the last frame it wrote into the queue.
  public func queuedFrameCount(of connection: ConnectionID) -> Int {
    peers.withLock { $0[connection]?.queued ?? 0 }
  }

  public func upgradeRequest(of connection: ConnectionID) -> UpgradeRequest {
    peers.withLock { $0[connection]?.request } ?? UpgradeRequest()
  }

  public func peerAddress(of connection: ConnectionID) -> String? {
    peers.withLock { $0[connection]?.address }
  }

  // MARK: - The service thread

  private func deliver(_ frame: OutgoingFrame, to connection: ConnectionID) {
    guard let queued = queue(frame, for: connection) else { return }
    peers.withLock { $0[connection]?.queued = queued }
  }

  /// ``deliver(_:to:)`` for every one of `connections` (all on this thread's lane), with
  /// one lock for what the core may read back.
  private func deliver(_ frame: OutgoingFrame, toAll connections: [ConnectionID]) {
    var counts: [(ConnectionID, Int)] = []
    counts.reserveCapacity(connections.count)
    for connection in connections {
      if let queued = queue(frame, for: connection) { counts.append((connection, queued)) }
    }
    peers.withLock { peers in
      for (connection, queued) in counts { peers[connection]?.queued = queued }
    }
  }

  /// Queues `frame` for `connection` and returns how many frames wait for it; nil when it
  /// was dropped.
  private func queue(_ frame: OutgoingFrame, for connection: ConnectionID) -> Int? {
    let lane = serviceSide(of: connection)
    // Answers are queued even then: the fresh screen keeps them ahead of it.
    guard !lane.resynchronizing.contains(connection) || frame.isAnswer else {
      frame.fanoutMark?.release()
      return nil
    }
    let transport = self.transport(of: connection)
    if transport.send(frame, to: connection) {
      return transport.queuedFrameCount(of: connection)
    }
    frame.fanoutMark?.release()
    // Full (or closing, when the fresh screen is dropped in turn): everything until the
    // fresh screen is dropped, since it contains all of it.
    lane.resynchronizing.insert(connection)
    core.perform { [self] in host?.resynchronize(connection) }
    return nil
  }
}

/// `POST /api/commands` on the core thread: the request waits for its answer, the service
/// thread does not.
extension CoreRelay: HTTPResponder {
  public func respond(to request: HTTPRequest) -> HTTPResponse? { nil }

  public func respondLater(
    to request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void
  ) -> Bool {
    guard request.path.hasPrefix(WebSocketServer.apiPathPrefix + "/") else { return false }
    core.perform { [self] in
      let response =
        host?.respond(to: request)
        ?? HTTPResponse(status: 404, text: "no such path: \(request.path)\n")
      // Inside a group, the answer waits for its commit like every frame.
      if let host { host.deliver { answer(response) } } else { answer(response) }
    }
    return true
  }
}
