import Foundation
import Synchronization
import TableModel
import TableStore

/// How busy the store's write locks are while a benchmark runs: a thread of its own asks
/// `pg_locks` about every 2 ms which advisory locks transactions hold and how many wait.
/// A lock every writer takes in turn — the global write lock held exclusively (every write
/// before the lock per list; an import or a grant now) or the commit lock (each write's
/// last moment, while it appends to the change log and commits) — limits commits when it
/// is held near 100 % of the samples. The lists' locks are counted apart: writers of
/// different lists hold theirs side by side.
final class AdvisoryLockSampler: Sendable {
  struct Figures {
    var samples = 0
    /// Samples in which the global write lock was held exclusively or the commit lock held.
    var held = 0
    /// Samples in which some list's lock was held.
    var listHeld = 0
    var waiting = 0

    var summary: String {
      guard samples > 0 else { return "the write lock was not sampled" }
      return
        "a lock every writer takes in turn (the global write lock, or the commit lock) held in "
        + "\(percent(held))% of \(samples) samples, some list's lock in \(percent(listHeld))%, "
        + "\(format(Double(waiting) / Double(samples))) waiting on average"
    }

    private func percent(_ count: Int) -> Int {
      Int((100 * Double(count) / Double(samples)).rounded())
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
      // The keys of PostgresStoreConnection: writeLock ("tw" + 1), commitLock ("tw" + 2),
      // and the lists' (class 0x7477, the two-key form).
      let query = """
        SELECT count(*) FILTER (WHERE granted AND classid = 0
            AND ((objid = 1953955841 AND mode = 'ExclusiveLock') OR objid = 1953955842)),
          count(*) FILTER (WHERE granted AND classid = 29815 AND objsubid = 2),
          count(*) FILTER (WHERE NOT granted)
        FROM pg_locks WHERE locktype = 'advisory'
        """
      while running.load(ordering: .relaxed) {
        if let sample = try? connection.fetchOne(query, [], { ($0.int(0), $0.int(1), $0.int(2)) }) {
          figures.withLock {
            $0.samples += 1
            $0.held += sample.0 > 0 ? 1 : 0
            $0.listHeld += sample.1 > 0 ? 1 : 0
            $0.waiting += sample.2
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
