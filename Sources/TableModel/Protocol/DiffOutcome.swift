/// What became of a diff offered to a screen.
public enum DiffOutcome: Sendable, Hashable {
  /// The screen moved to the diff's `to` version.
  case applied
  /// The diff is for another list, or the screen already contains it.
  case skipped
  /// The diff continues a later version than the screen's: a message was missed, so the
  /// client should `reload`.
  case gap
}
