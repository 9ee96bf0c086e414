import Foundation
import Synchronization
import TableModel
import TableStore

/// How busy the store's global write lock is while a benchmark runs: a thread of its own
/// asks `pg_locks` about every 2 ms whether a transaction holds the advisory lock and how
/// many wait for it. The share of samples with a holder is the lock's utilisation: near
/// 100 % the lock limits commits; well below, something else does.
final class AdvisoryLockSampler: Sendable {
  struct Figures {
    var samples = 0
    var held = 0
    var waiting = 0

    var summary: String {
      guard samples > 0 else { return "the write lock was not sampled" }
      return
        "the write lock held in \(Int((100 * Double(held) / Double(samples)).rounded()))% of "
        + "\(samples) samples, \(format(Double(waiting) / Double(samples))) waiting on average"
    }
  }

  private let figures = LockedValue(Figures())
  private let running = Atomic<Bool>(true)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts sampling the database at `url` (a connection of its own).
  init(url: String) {
    let thread = Thread { [self] in
      defer { finished.signal() }
      guard let connection = try? PostgresConnection(url) else { return }
      // Only this key: the lock every tableweb write transaction takes.
      let query = """
        SELECT count(*) FILTER (WHERE granted), count(*) FILTER (WHERE NOT granted)
        FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = 1953955841
        """
      while running.load(ordering: .relaxed) {
        if let sample = try? connection.fetchOne(query, [], { ($0.int(0), $0.int(1)) }) {
          figures.withLock {
            $0.samples += 1
            $0.held += sample.0 > 0 ? 1 : 0
            $0.waiting += sample.1
          }
        }
        usleep(2_000)
      }
    }
    thread.start()
  }

  /// Stops sampling and returns what was seen.
  func stop() -> Figures {
    running.store(false, ordering: .relaxed)
    finished.wait()
    return figures.withLock { $0 }
  }
}
