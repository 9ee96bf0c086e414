import Foundation
import TableModel
import TableStore

#if canImport(Glibc)
  import Glibc
#endif

/// Hears the commits of other servers on a PostgreSQL database, through `LISTEN`/`NOTIFY`,
/// and makes the server publish them from the change log.
///
/// Every change-log entry is announced on ``channel`` as `list:version` when its
/// transaction commits (a trigger the schema defines, migration 8); the log carries the
/// edits. The listener keeps one connection of its own on a thread of its own: it waits in
/// `poll(2)` on the connection's socket (a quarter of a second at most, to notice a stop),
/// so nothing blocks the service thread and nothing spins. When announcements arrive it
/// hands one `SessionHost.catchUpWithLog(announced:)` to the core thread (docs/threading.md) — one at a
/// time: while one is queued, later announcements ride along with it. The catch-up reads
/// the log only when some announcement names a version this server has not published: its
/// own commits, which it publishes as it makes them, cost no read (one PostgreSQL
/// transaction less per edit).
///
/// A dropped connection (PostgreSQL restarted, the backend terminated, the network gone —
/// found by a `SELECT 1` after ``idleCheck`` of silence) is opened again with the store's
/// `ReconnectBackoff` (100 ms doubling to 1 s, with jitter), reported once per outage;
/// once listening again it catches up from the log, so nothing committed meanwhile
/// is missed, and nothing is published twice (the catch-up skips what was published).
///
/// Measured against the 50 ms log poll it replaces, on the same machine:
/// `tablebench twoservers` figures are in docs/deploying.md.
final class ChangeListener: Sendable {
  /// The channel every tableweb server announces its commits on.
  static let channel = "tableweb_changes"
  static let idleCheck: Duration = .seconds(10)
  /// Its connection's `application_name`.
  static let applicationName = "tableweb change listener"

  private struct State {
    var isCancelled = false
    var isFinished = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = LockedValue(State())
  /// What the catch-up queued on the service thread (and not yet begun) was told.
  private struct Pending {
    var isQueued = false
    /// The announcements (`list:version`) heard since it was queued.
    var announcements: [String] = []
    /// Whether it must read the log whatever was announced (after a reconnection, when
    /// announcements may have been missed, or when too many piled up).
    var mustRead = false
  }
  private let pending = LockedValue(Pending())
  /// Beyond this many announcements waiting, the catch-up reads the log without looking
  /// at them.
  static let announcementLimit = 1_000
  private let url: String
  private let server: any WorkQueue
  private let reference: HostReference
  private let diagnostics: ServerDiagnostics

  init(url: String, server: any WorkQueue, host: SessionHost, diagnostics: ServerDiagnostics) {
    self.url = url
    self.server = server
    self.diagnostics = diagnostics
    reference = HostReference(host, on: server)
    let thread = Thread { [self] in
      run()
      let waiters = state.withLock {
        $0.isFinished = true
        return $0.waiters
      }
      for waiter in waiters { waiter.resume() }
    }
    thread.name = "tableweb change listener"
    thread.start()
  }

  func cancel() { state.withLock { $0.isCancelled = true } }

  /// Stops listening and returns once the listener's connection is closed.
  func stop() async {
    cancel()
    await withCheckedContinuation { continuation in
      let finished = state.withLock {
        if !$0.isFinished { $0.waiters.append(continuation) }
        return $0.isFinished
      }
      if finished { continuation.resume() }
    }
  }

  private var shouldRun: Bool { !state.withLock(\.isCancelled) && reference.isAlive }

  private func run() {
    var backoff = ReconnectBackoff()
    while shouldRun {
      let connection: PostgresConnection
      do {
        connection = try PostgresConnection(url)
        // Named, so that an operator (and a test) finds it in pg_stat_activity.
        try connection.executeScript("SET application_name = '\(Self.applicationName)'")
        try connection.listen(Self.channel)
      } catch {
        if backoff.noticeOutage(at: .now) {
          diagnostics.note(
            "not hearing other servers' changes (\(error)); trying again with back-off",
            level: .warning)
        }
        sleep(backoff.failed(at: .now))
        continue
      }
      if let outage = backoff.succeeded(at: .now) {
        diagnostics.note(
          "hearing other servers' changes again after \(outage.length) (\(outage.failures) failed attempts)",
          level: .notice)
      }
      // Whatever was committed while nobody listened is in the log.
      catchUp(announced: nil)
      do {
        try listen(on: connection)
      } catch {
        // One line per outage: the failed reconnections that may follow are part of it.
        _ = backoff.noticeOutage(at: .now)
        diagnostics.note(
          "lost the connection that hears other servers' changes (\(error)); reconnecting with back-off",
          level: .warning)
      }
    }
  }

  /// Waits for announcements until stopped; throws when the connection breaks.
  private func listen(on connection: PostgresConnection) throws(PostgresError) {
    let clock = ContinuousClock()
    var heard = clock.now
    while shouldRun {
      var socket = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&socket, 1, 250)
      if ready < 0 {
        if errno == EINTR { continue }
        throw PostgresError(
          sqlState: "08006", message: "poll failed (errno \(errno))", statement: nil)
      }
      if ready == 0 {
        // A connection that died without a word (a cable, a firewall) reads as silence.
        if clock.now - heard > Self.idleCheck {
          try connection.executeScript("SELECT 1")
          heard = clock.now
        }
        continue
      }
      heard = clock.now
      let heardNow = try connection.pendingNotifications()
      if !heardNow.isEmpty { catchUp(announced: heardNow.map(\.payload)) }
    }
  }

  /// Queues one catch-up on the service thread, or adds `announced` (nil: read the log
  /// whatever was announced) to the one queued.
  private func catchUp(announced: [String]?) {
    let mustQueue = pending.withLock { pending in
      if let announced, !pending.mustRead {
        pending.announcements += announced
        if pending.announcements.count > Self.announcementLimit { pending.mustRead = true }
      } else {
        pending.mustRead = true
      }
      if pending.mustRead { pending.announcements = [] }
      defer { pending.isQueued = true }
      return !pending.isQueued
    }
    guard mustQueue else { return }
    server.perform { [self] in
      let heard = pending.withLock { pending in
        defer { pending = Pending() }
        return pending.mustRead ? nil : pending.announcements
      }
      reference.host?.catchUpWithLog(announced: heard)
    }
  }

  /// Sleeps `duration`, waking early when stopped.
  private func sleep(_ duration: Duration) {
    let end = ContinuousClock.now + duration
    while shouldRun {
      let left = end - ContinuousClock.now
      guard left > .zero else { return }
      let slice = min(left, .milliseconds(50)).components
      Thread.sleep(forTimeInterval: Double(slice.seconds) + Double(slice.attoseconds) / 1e18)
    }
  }
}
