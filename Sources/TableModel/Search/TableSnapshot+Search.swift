extension TableSnapshot {
  /// The rows that match `query`, in their order and sections; sections with no match
  /// are left out, and so is the index strip (as a search results table shows it). The
  /// version stays the list's: the results are that version's.
  public func filtered(by query: SearchQuery) -> TableSnapshot {
    var results = self
    results.indexTitles = nil
    results.sections = sections.compactMap { section in
      var kept = section
      kept.rows = section.rows.filter(query.matches)
      return kept.rows.isEmpty ? nil : kept
    }
    return results
  }
}
