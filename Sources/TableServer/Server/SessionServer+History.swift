import TableModel

/// A list's history (the `history` extension): a page of it on request, and its new
/// entries, as they come, to the sessions that asked for its newest page while their top
/// screen shows it (the History screen over the list).
extension SessionServer {
  /// Who is sent a list's new history entries: each watching session and the newest entry
  /// it has been sent, and the list's version read last (so that a change published twice,
  /// as committed and read back from the log, reads the history once).
  struct HistoryWatch: Sendable, Hashable {
    var seen: [SessionToken: Int] = [:]
    var version = 0
  }

  /// Answers `history`: the page asked for; without `before`, the session also watches the
  /// list while its top screen shows it.
  mutating func sendHistory(
    of list: String, before: Int?, count: Int, session token: SessionToken,
    to connection: ConnectionID, effects: inout [ServerAction]
  ) throws(ProtocolError) {
    guard let log = capabilities.changeLog else {
      throw ProtocolError(.notFound, "this server keeps no history of list \(list)")
    }
    let page = try log.history(of: list, before: before, count: count)
    effects.append(reply(.history(page), to: connection))
    guard before == nil, sessions[token]?.topList == list else { return }
    let newest = page.entries.first?.id ?? 0
    historyWatchers[list, default: HistoryWatch()].seen[token] = newest
  }

  /// Sends the sessions watching `list`'s history the entries they have not been sent.
  mutating func pushHistory(of list: String, version: Int?, effects: inout [ServerAction]) {
    guard var watch = historyWatchers[list], let log = capabilities.changeLog else { return }
    if let version {
      guard version > watch.version else { return }
      watch.version = version
    }
    let oldest = watch.seen.values.min() ?? 0
    let entries: [HistoryEntry]
    do {
      entries = try log.history(of: list, after: oldest)
    } catch {
      diagnostics.report("the history of a list could not be read (\(error))")
      return
    }
    for (token, seen) in watch.seen {
      let fresh = entries.filter { $0.id > seen }
      guard let newest = fresh.first, let session = sessions[token] else { continue }
      // The read holds the newest entries only: an older one it left out is a gap.
      let gap = entries.count == HistoryMessage.maximumCount && entries.last!.id > seen + 1
      let message = HistoryMessage(list: list, entries: fresh, more: gap, live: true)
      effects.append(reply(.history(message), to: session.connections))
      watch.seen[token] = newest.id
    }
    historyWatchers[list] = watch
  }

  /// The session no longer watches the history of `list` (it left the list, or closed).
  mutating func stopWatchingHistory(of list: String, _ token: SessionToken) {
    guard historyWatchers[list]?.seen.removeValue(forKey: token) != nil else { return }
    if historyWatchers[list]?.seen.isEmpty == true { historyWatchers[list] = nil }
  }
}
