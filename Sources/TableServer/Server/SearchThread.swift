import Foundation
import Glibc
import TableModel

/// The thread searches are read on, off the core thread, when the data source declares a
/// ``DataSourceCapabilities/searchReader`` (docs/threading.md): it makes the reader
/// there on the first search and calls only it, one search at a time, in the order they
/// were asked for; each result is handed back to the core thread.
package final class SearchThread: @unchecked Sendable {
  private let queue: CoreThread
  private let makeReader: @Sendable () throws(ProtocolError) -> any SearchReader
  /// Touched only on `queue`'s thread.
  private var reader: (any SearchReader)?

  package init(makeReader: @escaping @Sendable () throws(ProtocolError) -> any SearchReader) {
    self.makeReader = makeReader
    queue = CoreThread(name: "tableweb-search")
    // A long search yields the cores to the threads that answer everyone: it may take
    // longer, nobody else waits for it. (On Linux the nice value is per thread, and
    // `who` 0 is the calling thread.)
    queue.perform {
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    }
  }

  /// Reads `query`'s results on `list` on the search thread and diffs them there from
  /// `base` (the results shown now), then calls `done` with them there (`done` hands them
  /// to the core thread, which then only takes them over). `base` is let go of on the
  /// search thread too. Any thread.
  package func read(
    _ query: SearchQuery, in list: String, diffedFrom base: TableSnapshot?,
    done: @escaping @Sendable (Result<SearchRead, ProtocolError>) -> Void
  ) {
    queue.perform { [self] in
      done(search(query, in: list).map { SearchRead(results: $0, diffedFrom: base) })
    }
  }

  private func search(_ query: SearchQuery, in list: String) -> Result<
    TableSnapshot, ProtocolError
  > {
    do {
      if reader == nil { reader = try makeReader() }
      return .success(try reader!.search(query, in: list))
    } catch {
      // A broken connection is made again for the next search.
      reader = nil
      return .failure(error)
    }
  }

  /// Frees `results` on the search thread rather than the caller's. Any thread.
  package func release(_ results: ReleasedResults) {
    queue.perform { results.free() }
  }

  /// Lets the reader go (closing its connection) and ends the thread once the searches
  /// asked for so far have run. Any thread.
  package func stop() async {
    queue.perform { [self] in reader = nil }
    queue.stop()
    await queue.waitUntilStopped()
  }
}
