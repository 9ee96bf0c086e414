import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// Reconnecting to PostgreSQL with back-off: the schedule itself, and a store on a
/// cluster of its own that is stopped (`-m fast`, `-m immediate`) and started again.
@Suite struct PostgresReconnectTests {
  @Test func backOffDoublesUpToItsCapWithJitter() {
    var backoff = ReconnectBackoff(first: .milliseconds(100), cap: .seconds(2), seed: 7)
    #expect(
      (0...8).map { backoff.ceiling(afterFailures: $0) }
        == [0, 100, 200, 400, 800, 1600, 2000, 2000, 2000].map { Duration.milliseconds($0) })
    let start = ContinuousClock.now
    #expect(backoff.mayAttempt(at: start))
    let began = backoff.noticeOutage(at: start)
    let beganAgain = backoff.noticeOutage(at: start + .seconds(1))
    #expect(began && !beganAgain)  // once per outage
    var now = start
    var waits: [Duration] = []
    for failure in 1...8 {
      let wait = backoff.failed(at: now)
      let ceiling = backoff.ceiling(afterFailures: failure)
      #expect(wait >= ceiling / 2 && wait <= ceiling, "attempt \(failure): \(wait)")
      #expect(!backoff.mayAttempt(at: now + wait - .milliseconds(1)))
      #expect(backoff.mayAttempt(at: now + wait))
      waits.append(wait)
      now += wait
    }
    // Jitter: the waits are not the bare ceilings, and another seed draws others.
    #expect(waits != (1...8).map { backoff.ceiling(afterFailures: $0) })
    var other = ReconnectBackoff(first: .milliseconds(100), cap: .seconds(2), seed: 8)
    #expect((1...8).map { _ in other.failed(at: start) } != waits)
    let outage = backoff.succeeded(at: now)
    #expect(outage?.length == now - start)
    #expect(outage?.failures == 8)
    #expect(backoff.failures == 0 && backoff.outageStart == nil && backoff.mayAttempt(at: now))
    #expect(backoff.succeeded(at: now) == nil)  // no outage, nothing to report
  }

  /// PostgreSQL stopped under a store: commands fail at once with a connection error that
  /// says so, making no more attempts than the back-off allows; once it is back the store
  /// reconnects within one capped wait, and every commit it acknowledged before is there
  /// (also after `-m immediate`, which leaves crash recovery to the next start).
  @Test(arguments: ["fast", "immediate"])
  func aStoreReconnectsWithBackOffAfterPostgreSQLRestarts(mode: String) throws {
    let cluster = try PostgresCluster()
    let store = try Store(path: try cluster.newDatabase())
    try store.importJSON(CommandTests.file)
    let connection = try #require(store.database as? PostgresStoreConnection).connection
    _ = try store.select("t2", in: "tones")
    let version = try store.version(of: "tones")

    try cluster.stop(mode: mode)
    let down = ContinuousClock.now
    var failures: [StoreError] = []
    while ContinuousClock.now - down < .milliseconds(500) {
      do {
        _ = try store.select("t1", in: "tones")
        Issue.record("a command succeeded with PostgreSQL stopped")
      } catch {
        failures.append(error)
      }
    }
    #expect(failures.count > 100)  // each fails at once: no waiting inside a command
    let unexpected = failures.filter { !$0.isConnectionFailure }
    #expect(unexpected.isEmpty)
    let refusal = try #require(failures.last).protocolError
    #expect(refusal.code == ErrorCode.internal)
    #expect(refusal.message.contains("cannot be reached"))
    // 100 ms doubling: within half a second, at most 4 attempts reached the network.
    #expect((1...4).contains(connection.backoff.failures), "\(connection.backoff.failures)")

    try cluster.start()
    let up = ContinuousClock.now
    var reconnected: Duration?
    while ContinuousClock.now - up < .seconds(10), reconnected == nil {
      do {
        _ = try store.select("t1", in: "tones")
        reconnected = ContinuousClock.now - up
      } catch {
        #expect(error.isConnectionFailure)
        Thread.sleep(forTimeInterval: 0.005)
      }
    }
    // Back within one capped wait (1 s) of the server's return.
    let after = try #require(reconnected)
    #expect(after < .seconds(1) + .milliseconds(500))
    #expect(connection.backoff.outageStart == nil)
    let now = try store.version(of: "tones")
    #expect(now == version + 1)
    #expect(try store.snapshot(of: "home").sections[0].rows[0].detail == "Marimba")
  }
}
