import TableModel

/// A search's results as the search thread hands them to the core thread: read, and
/// already diffed from the results the searchers were shown when the read was asked for
/// (`base`), so that taking them over costs the core one screen, not one pass over every
/// match (the diff of 611,054 results after one row was renamed takes 12–14 ms).
package struct SearchRead: Sendable {
  /// The results, immutable from here on.
  package var results: TableSnapshot
  /// The version of the results the diff starts from; nil when there is no diff (no
  /// results were shown, or the new ones are not the next version of them).
  package var base: Int?
  /// The diff from `base` to `results`; nil when they cannot be diffed (duplicate ids).
  package var ops: [DiffOp]?
  /// Why they cannot be diffed, when they cannot.
  package var diffFailure: String?

  /// Reads `results`' diff from `base` when they are its next version; on the thread that
  /// calls it (the search thread, or the core when the results were read on it).
  package init(results: TableSnapshot, diffedFrom base: TableSnapshot?) {
    self.results = results
    guard let base, results.version == base.version + 1 else { return }
    self.base = base.version
    do {
      ops = try TableDiff.ops(from: base.sections, to: results.sections)
    } catch {
      diffFailure = "\(error)"
    }
  }
}
