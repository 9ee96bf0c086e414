import TableModel

/// `search`: a session's filtered view of a searchable list (`UISearchController`). The
/// data source filters the whole list (``TableDataSource/search(_:in:)``); the session
/// gets the results as a `screen` carrying `search`, and, while others edit, diffs between
/// one version's results and the next instead of the list's own diffs.
extension SessionServer {
  /// The longest query accepted, in characters.
  static let searchQueryLimit = 256

  mutating func search(
    _ text: String, in list: String, session token: SessionToken, effects: inout [ServerAction]
  ) throws(ProtocolError) {
    guard let session = sessions[token] else { preconditionFailure("\(token) is not open") }
    guard session.topList == list else {
      throw ProtocolError(.notAllowed, "list \(list) is not on this session's top screen")
    }
    guard snapshots[list]?.isSearchable == true else {
      throw ProtocolError(.notAllowed, "“\(session.stack.top.title)” cannot be searched")
    }
    guard text.count <= Self.searchQueryLimit else {
      throw ProtocolError(
        .badMessage, "query is longer than \(Self.searchQueryLimit) characters")
    }
    let query = SearchQuery(text)
    if !query.isEmpty, searches.results[list]?[query] == nil {
      if configuration.readsSearchesAside {
        // Read off the core thread: the screen goes when the results come
        // (searchRead(_:in:result:)); meanwhile everyone else's commands go on.
        searches.setQuery(query, of: session)
        forgetUnshownResults(of: list)
        requestSearch(query, in: list, effects: &effects)
        return
      }
      searches.results[list, default: [:]][query] = try readSearch(query, in: list)
    }
    searches.setQuery(query.isEmpty ? nil : query, of: session)
    forgetUnshownResults(of: list)
    effects.append(screen(of: token, transition: .none, to: session.connections))
  }

  /// Asks for `query`'s results on `list` to be read off the core thread, unless a read
  /// of them is already under way (its results, if the list moved on meanwhile, are read
  /// again when they come). The read is handed the results shown now, to diff the new
  /// ones from there rather than on the core thread.
  mutating func requestSearch(
    _ query: SearchQuery, in list: String, effects: inout [ServerAction]
  ) {
    guard searches.reading[list]?.contains(query) != true else { return }
    searches.reading[list, default: []].insert(query)
    effects.append(.readSearch(query, list: list, base: searches.results[list]?[query]))
  }

  /// `searchRead(_:in:read:)` for results read on the caller's thread: diffed here
  /// from those shown (a search thread hands them over diffed already).
  package mutating func searchRead(
    _ query: SearchQuery, in list: String, result: Result<TableSnapshot, ProtocolError>
  ) -> [ServerAction] {
    let shown = searches.results[list]?[query]
    return searchRead(
      query, in: list, read: result.map { SearchRead(results: $0, diffedFrom: shown) })
  }

  /// Results read off the core thread (`ServerAction.readSearch`) came back. Nobody shows
  /// the query any more: they are dropped. Read at a newer version than the core has
  /// (another process's commit it has not caught up with): dropped, since catching up
  /// reads them again. Read at an older one (the list changed meanwhile): read again, and
  /// shown meanwhile if newer than what the sessions have. Shown results are kept, and the
  /// sessions that show the query get them: a `screen` for those that were waiting for
  /// their first results, a `diff` from the results they have (diffed by the reader).
  /// Nothing here is proportional to the number of results: results dropped or replaced
  /// go back to the search thread to be freed.
  package mutating func searchRead(
    _ query: SearchQuery, in list: String, read: Result<SearchRead, ProtocolError>
  ) -> [ServerAction] {
    var effects: [ServerAction] = []
    searches.reading[list]?.remove(query)
    if searches.reading[list]?.isEmpty == true { searches.reading[list] = nil }
    let viewers = sessions(showing: list).filter { searches.query(of: $0) == query }
    guard !viewers.isEmpty else {
      if case .success(let dropped) = read { release(dropped.results) }
      forgetUnshownResults(of: list)
      return effects
    }
    let new: SearchRead
    switch read {
    case .success(let results):
      new = results
    case .failure(let error):
      diagnostics.report("a search of list \(list) failed (\(error))")
      // Their screen says what can be shown: kept results, or a read on this thread.
      for session in viewers where searches.results[list]?[query] == nil {
        effects.append(screen(of: session.token, transition: .none, to: session.connections))
      }
      return effects
    }
    let old = searches.results[list]?[query]
    if let current = snapshots[list]?.version, new.results.version != current {
      // Newer than the core knows: catching up reads them again.
      guard new.results.version < current else {
        release(new.results)
        return effects
      }
      // Older: read again, but shown meanwhile when newer than what the sessions have (so
      // that a list edited faster than it can be searched still shows results that move
      // on); the next results are diffed from them.
      guard old.map({ new.results.version > $0.version }) ?? true else {
        release(new.results)
        requestSearch(query, in: list, effects: &effects)
        return effects
      }
      searches.results[list, default: [:]][query] = new.results
      requestSearch(query, in: list, effects: &effects)
    } else {
      searches.results[list, default: [:]][query] = new.results
    }
    sendSearchResults(new, replacing: old, of: list, to: viewers, effects: &effects)
    if let old { release(old) }
    return effects
  }

  /// What the sessions showing one query on `list` get when its results go from `old` to
  /// `new`: one diff when `new` is the next version and was diffed from `old`, a new
  /// screen when the results skipped a version (or were not shown yet, or were diffed
  /// from other results, or cannot be diffed), nothing when they are the same.
  private mutating func sendSearchResults(
    _ new: SearchRead, replacing old: TableSnapshot?, of list: String, to viewers: [Session],
    effects: inout [ServerAction]
  ) {
    if let old, new.results.version == old.version + 1, new.base == old.version,
      let ops = new.ops
    {
      let diff = TableDiff(list: list, from: old.version, ops: ops)
      effects.append(
        .send(frame(for: .diff(diff)), to: viewers.flatMap(\.connections), kind: .diff))
    } else if old?.version != new.results.version {
      if let failure = new.diffFailure {
        diagnostics.report(
          "search results of list \(list) cannot be diffed (\(failure)); screens resent")
      }
      for session in viewers {
        effects.append(screen(of: session.token, transition: .none, to: session.connections))
      }
    }
  }

  /// The results the session's top screen shows, read now if they are not kept; nil when
  /// it shows its whole list (or the results cannot be read, which is reported).
  mutating func searchResults(shownTo session: Session) -> (
    query: SearchQuery, results: TableSnapshot
  )? {
    searches.prune(session)
    guard let query = searches.query(of: session) else { return nil }
    if let kept = searches.results[session.topList]?[query] { return (query, kept) }
    do {
      let results = try readSearch(query, in: session.topList)
      searches.results[session.topList, default: [:]][query] = results
      return (query, results)
    } catch {
      diagnostics.report("a search of list \(session.topList) failed (\(error))")
      return nil
    }
  }

  /// What `fetch` cuts rows from for `connection`: its search results (whole) when its
  /// session searches `list`, else the list as it is held (see ``listState(of:)``); nil
  /// while its session's results are being read off the core thread (reading them here
  /// would hold everyone; their `screen` follows and replaces what the client holds).
  mutating func fetchedState(of list: String, for connection: ConnectionID) throws(ProtocolError)
    -> (snapshot: TableSnapshot, counts: [Int]?)?
  {
    if let token = connections[connection]?.session, let session = sessions[token],
      session.topList == list
    {
      searches.prune(session)
      if let query = searches.query(of: session), searches.results[list]?[query] == nil,
        searches.reading[list]?.contains(query) == true
      {
        return nil
      }
      if let shown = searchResults(shownTo: session) { return (shown.results, nil) }
    }
    return try listState(of: list)
  }

  /// The connections that get `list`'s own diffs: its viewers that are not searching it,
  /// and the split sessions that show it as their sidebar (never searched).
  func unsearchedViewers(of list: String) -> [ConnectionID] {
    sessions(showing: list).filter { searches.query(of: $0) == nil }.flatMap(\.connections)
      + sessions(showingBeside: list).flatMap(\.connections)
  }

  /// After `list` changed: each query shown on it is read again and its viewers get the
  /// difference as one diff from the results they have (or a new screen when the results
  /// skipped a version or cannot be diffed).
  mutating func publishSearchResults(of list: String, effects: inout [ServerAction]) {
    // Nobody searches, and no results are kept: nothing to do (the usual case, per change).
    guard searches.isInUse || searches.results[list] != nil else { return }
    var searchers: [SearchQuery: [Session]] = [:]
    for session in sessions(showing: list) {
      if let query = searches.query(of: session) { searchers[query, default: []].append(session) }
    }
    forgetUnshownResults(of: list)
    if configuration.readsSearchesAside {
      // The results they have stay until the new ones come (searchRead(_:in:result:)),
      // which diffs them.
      for query in searchers.keys { requestSearch(query, in: list, effects: &effects) }
      return
    }
    for (query, viewers) in searchers {
      let old = searches.results[list]?[query]
      searches.results[list]?[query] = nil
      guard let new = searchResults(shownTo: viewers[0])?.results else { continue }
      sendSearchResults(
        SearchRead(results: new, diffedFrom: old), replacing: old, of: list, to: viewers,
        effects: &effects)
    }
  }

  /// The data source's results, numbered by the server when the data source does not
  /// keep versions.
  private func readSearch(_ query: SearchQuery, in list: String) throws(ProtocolError)
    -> TableSnapshot
  {
    var results = try dataSource.search(query, in: list)
    if !dataSource.keepsVersions { results.version = listVersions.current(of: list) }
    return results
  }

  /// Drops the results of `list` that no open session shows on its top screen.
  private mutating func forgetUnshownResults(of list: String) {
    let shown = Set(sessions(showing: list).compactMap { searches.query(of: $0) })
    for (query, results) in searches.results[list] ?? [:] where !shown.contains(query) {
      release(results)
    }
    searches.results[list] = searches.results[list]?.filter { shown.contains($0.key) }
    if searches.results[list]?.isEmpty == true { searches.results[list] = nil }
  }

  /// Lets go of results the core no longer keeps: when searches are read aside, they go
  /// back to the search thread to be freed there (freeing 600,000 rows takes tens of
  /// milliseconds); else they are freed here.
  private mutating func release(_ results: TableSnapshot) {
    if configuration.readsSearchesAside { searches.released.append(results) }
  }
}
