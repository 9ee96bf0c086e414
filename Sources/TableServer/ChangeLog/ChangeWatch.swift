import Logging
import TableStore

/// Notices commits made by other processes to the SQLite file a server serves, and makes
/// the server publish them from the change log.
///
/// It polls `PRAGMA data_version` about every 50 ms on a connection of its own,
/// off the service thread; when the value moves, it hands `SessionHost.catchUpWithLog(announced:)`
/// to the core thread (docs/threading.md), the way `reloadList` reaches it from other threads. The
/// server's own commits move it too: the catch-up then finds them published and skips
/// them. One tiny read per tick; nothing on the path of a message.
///
/// On PostgreSQL there is no polling: a `ChangeListener` hears each commit's
/// announcement (`LISTEN`/`NOTIFY`) instead.
package final class ChangeWatch: Sendable {
  private let task: Task<Void, Never>?
  private let listener: ChangeListener?

  /// Starts watching the database at `path`. Cancel it once the server has stopped; it
  /// also ends when the host is gone.
  public init(
    path: String, server: any WorkQueue, host: SessionHost,
    every interval: Duration = .milliseconds(50), logger: Logger = Logger(label: "tableweb")
  ) {
    let diagnostics = ServerDiagnostics(logger: logger)
    if Store.isPostgresURL(path) {
      listener = ChangeListener(url: path, server: server, host: host, diagnostics: diagnostics)
      task = nil
      return
    }
    listener = nil
    let reference = HostReference(host, on: server)
    task = Task.detached {
      // The first catch-up marks where this server starts reading the log.
      server.perform { reference.host?.catchUpWithLog() }
      // Writable when the file is (it only reads): whichever connection closes last folds
      // the write-ahead log back into the file and removes it, which a read-only one cannot.
      guard let store = Self.open(path, diagnostics) else { return }
      var seen = Self.dataVersion(of: store, diagnostics)
      while !Task.isCancelled, reference.isAlive {
        do {
          try await Task.sleep(for: interval)
        } catch {
          return  // cancelled
        }
        let now = Self.dataVersion(of: store, diagnostics)
        guard now != seen else { continue }
        seen = now
        server.perform { reference.host?.catchUpWithLog() }
      }
    }
  }

  public func cancel() {
    task?.cancel()
    listener?.cancel()
  }

  /// The watcher's connection: writable when the file is, else read-only; nil (reported)
  /// when neither opens.
  private static func open(_ path: String, _ diagnostics: ServerDiagnostics) -> Store? {
    do {
      return try Store(path: path)
    } catch {
      do {
        return try Store(path: path, readOnly: true)
      } catch {
        diagnostics.report("changes by other processes will not be seen: \(error)")
        return nil
      }
    }
  }

  /// The database's change counter, or nil (reported) when it cannot be read: the next
  /// tick that reads it again counts as a change, so nothing is missed.
  private static func dataVersion(of store: Store, _ diagnostics: ServerDiagnostics) -> Int? {
    do {
      return try store.dataVersion()
    } catch {
      diagnostics.report("cannot read whether other processes changed the database (\(error))")
      return nil
    }
  }

  /// Stops watching and returns once the watcher's connection is closed.
  public func stop() async {
    task?.cancel()
    await task?.value
    await listener?.stop()
  }
}
