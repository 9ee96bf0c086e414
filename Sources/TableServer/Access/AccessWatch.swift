/// Rechecks every open connection's access about once a second, on the core thread, so
/// that a credential revoked by any process (`tableweb access revoke` on the same
/// database) closes its connections within two seconds. One read of the small grant
/// table per tick; nothing on the path of a message.
package final class AccessWatch: Sendable {
  private let task: Task<Void, Never>

  /// Starts watching. Cancel it once the server has stopped (work handed to a stopped
  /// server is dropped, so a late tick does nothing); it also ends when the host is gone.
  public init(
    server: any WorkQueue, host: SessionHost, every interval: Duration = .seconds(1)
  ) {
    let reference = HostReference(host, on: server)
    task = Task.detached {
      while !Task.isCancelled, reference.isAlive {
        do {
          try await Task.sleep(for: interval)
        } catch {
          return  // cancelled
        }
        server.perform { reference.host?.recheckAccess() }
      }
    }
  }

  public func cancel() { task.cancel() }
}

/// Carries the host to the core thread (docs/threading.md), the only place it is used,
/// which ``host`` checks on every access (as `ThreadBound` does); weak, so that a watch
/// (this one, `ChangeWatch`) does not keep a stopped server's host (and its database)
/// alive.
final class HostReference: @unchecked Sendable {
  // Sendable because the host is reached only through `host`, which checks the thread.
  private weak var weakHost: SessionHost?
  private let queue: any WorkQueue

  init(_ host: SessionHost, on queue: any WorkQueue) {
    weakHost = host
    self.queue = queue
  }

  /// The host, or nil once it is gone; stops the program off the core thread.
  var host: SessionHost? {
    precondition(
      queue.isCurrentThread, "a SessionHost bound to \(queue.threadName) was used on another thread"
    )
    return weakHost
  }

  /// Read off the core thread only as a hint to stop; the host is used only there.
  var isAlive: Bool { weakHost != nil }
}
