import TableModel

/// Who searches what: each session's query on the levels of its stack that show search
/// results, and the results each query shows now (only for lists that an open session
/// searches on its top screen), kept current by `SessionServer` as the lists change.
///
/// A value, part of the session core: a copy of the core (`SessionServer.checkpoint()`)
/// holds its own searches.
struct SearchBook: Equatable {
  /// Per session, the query of each list in its stack that it searches.
  private var queries: [SessionToken: [String: SearchQuery]] = [:]
  /// Per list, the results of each query someone shows.
  var results: [String: [SearchQuery: TableSnapshot]] = [:]
  /// Per list, the queries whose results are being read off the core thread (at most
  /// one read of each at a time; see `SessionServer.searchRead(_:in:result:)`).
  var reading: [String: Set<SearchQuery>] = [:]
  /// Results no longer kept, when searches are read aside: handed to the search thread to
  /// be freed there (freeing 600,000 rows takes tens of milliseconds), not on the core's.
  var released: [TableSnapshot] = []

  /// Takes the results to free (see ``released``), in a box that then holds the only
  /// reference to them; nil when there are none.
  mutating func takeReleased() -> ReleasedResults? {
    guard !released.isEmpty else { return nil }
    let box = ReleasedResults(released)
    released = []
    return box
  }

  /// Whether any session searches anything.
  var isInUse: Bool { !queries.isEmpty }

  /// The query the session's top screen shows the results of, if any.
  func query(of session: Session) -> SearchQuery? {
    queries[session.token]?[session.topList]
  }

  /// Sets (or, with nil, ends) the session's search on its top list.
  mutating func setQuery(_ query: SearchQuery?, of session: Session) {
    queries[session.token, default: [:]][session.topList] = query
  }

  /// Forgets the searches on lists no longer in the session's stack (a level popped).
  mutating func prune(_ session: Session) {
    guard let searched = queries[session.token] else { return }
    let lists = Set(session.stack.levels.map(\.list))
    let kept = searched.filter { lists.contains($0.key) }
    queries[session.token] = kept.isEmpty ? nil : kept
  }

  /// Forgets every search of a session that ended.
  mutating func forget(_ token: SessionToken) { queries[token] = nil }
}

/// Search results the core let go of, on their way to the search thread to be freed there.
/// The core hands over the box and keeps no reference to what is in it: handed over as an
/// array, the results were freed by whichever thread let go of them last, now and then the
/// core (freeing 600,000 rows takes tens of milliseconds, see `SearchBook.released`).
///
/// Unchecked: the core fills it and lets go of it before the search thread empties it.
package final class ReleasedResults: @unchecked Sendable {
  private var results: [TableSnapshot]

  init(_ results: [TableSnapshot]) { self.results = results }

  /// Frees the results, on the calling thread.
  func free() { results = [] }
}
