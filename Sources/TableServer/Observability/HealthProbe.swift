import Foundation
import TableModel

/// Runs the health check (`GET /healthz`) off the service thread. On PostgreSQL a check
/// opens a connection and asks `SELECT 1`: a network round trip, and with PostgreSQL gone
/// or hung, a wait of its own. One check runs at a time, on a thread of its own; requests
/// that arrive while it runs are answered with its result, so a load balancer polling a
/// hung database queues one check, not one per request.
final class HealthProbe: Sendable {
  private let check: @Sendable () -> Bool
  private struct State {
    var isRunning = false
    var waiters: [@Sendable (Bool) -> Void] = []
  }
  private let state = LockedValue(State())

  init(_ check: @escaping @Sendable () -> Bool) {
    self.check = check
  }

  /// Calls `answer` with the result of the check running now, or of one started now, from
  /// the probe's thread. Any thread; returns at once.
  func ask(_ answer: @escaping @Sendable (Bool) -> Void) {
    let starts = state.withLock { state in
      state.waiters.append(answer)
      defer { state.isRunning = true }
      return !state.isRunning
    }
    guard starts else { return }
    let thread = Thread { [self] in
      let isHealthy = check()
      let waiters = state.withLock { state in
        state.isRunning = false
        defer { state.waiters = [] }
        return state.waiters
      }
      for waiter in waiters { waiter(isHealthy) }
    }
    thread.name = "tableweb-health"
    thread.start()
  }
}
