import CWebsockets

/// Keepalive by one periodic sweep instead of a timer per connection.
///
/// libwebsockets 4.1 keeps each connection's keepalive ("validity") timer in one list
/// sorted by due time, and re-inserts it, walking the list, whenever the connection is
/// heard from or pinged: O(connections) per event, so 10,000 viewers cost it quadratic
/// time. The server gives lws no keepalive policy and instead stamps each connection when
/// it hears from it (a message or a pong); a single lws timer walks the connections every
/// ``idleSweepInterval``, pings those idle for ``Configuration/pingAfterIdleSeconds`` and
/// drops those idle for ``Configuration/hangUpAfterIdleSeconds``.
///
/// - Important: Service thread only, like the rest of the transport's state.
extension WebSocketServer {
  /// How often the sweep runs: often enough that a ping or a hang-up is at most this late.
  var idleSweepInterval: Duration {
    let gap = min(
      configuration.pingAfterIdleSeconds,
      configuration.hangUpAfterIdleSeconds - configuration.pingAfterIdleSeconds)
    return min(.seconds(5), max(.milliseconds(250), .seconds(gap) / 4))
  }

  /// Schedules the next sweep on the context's own timer list (one entry, not one per
  /// connection).
  func scheduleIdleSweep(_ context: OpaquePointer, timer: IdleSweepTimer) {
    let microseconds = idleSweepInterval / .microseconds(1)
    lws_sul_schedule(context, 0, timer.sul, idleSweepFired, lws_usec_t(microseconds))
  }

  /// Pings connections idle since `pingAfterIdleSeconds`, once, and drops those idle since
  /// `hangUpAfterIdleSeconds` that were pinged and did not answer (a pong or any message
  /// makes a connection heard from again).
  func sweepIdleConnections(at now: ContinuousClock.Instant) {
    precondition(isOnServiceThread, "the idle sweep runs on the service thread")
    let pingAfter = Duration.seconds(configuration.pingAfterIdleSeconds)
    let hangUpAfter = Duration.seconds(configuration.hangUpAfterIdleSeconds)
    for connection in connections.values {
      let idle = now - connection.lastHeard
      if idle >= hangUpAfter, connection.pingSent {
        // Asynchronously, as lws's own keepalive does: LWS_CALLBACK_CLOSED follows.
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_USER_OK, -1)
      } else if idle >= pingAfter, !connection.pingSent {
        connection.pingSent = true
        connection.pingDue = true
        lws_callback_on_writable(connection.wsi)
      }
    }
  }
}

/// The lws timer of the idle sweep and the server it belongs to, in C memory lws keeps a
/// pointer to until the context is destroyed.
final class IdleSweepTimer {
  private struct Storage {
    var sul = lws_sorted_usec_list_t()
    var server: UnsafeMutableRawPointer
  }
  private let storage: UnsafeMutablePointer<Storage>

  init(server: WebSocketServer) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: Storage(server: Unmanaged.passUnretained(server).toOpaque()))
  }

  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  var sul: UnsafeMutablePointer<lws_sorted_usec_list_t> {
    UnsafeMutableRawPointer(storage).advanced(by: MemoryLayout<Storage>.offset(of: \.sul)!)
      .assumingMemoryBound(to: lws_sorted_usec_list_t.self)
  }

  /// The server whose timer `sul` is.
  static func server(of sul: UnsafeMutablePointer<lws_sorted_usec_list_t>) -> WebSocketServer {
    let base = UnsafeMutableRawPointer(sul).advanced(by: -MemoryLayout<Storage>.offset(of: \.sul)!)
      .assumingMemoryBound(to: Storage.self)
    return Unmanaged<WebSocketServer>.fromOpaque(base.pointee.server).takeUnretainedValue()
  }
}

/// lws calls this on the service thread when the sweep is due.
private func idleSweepFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
  guard let sul else { return }
  let server = IdleSweepTimer.server(of: sul)
  server.sweepIdleConnections(at: .now)
  server.rescheduleIdleSweep()
}
