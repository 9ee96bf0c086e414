@testable import TableStore

/// The error a data file gets on import, as `path: message`; nil when it is accepted.
func importProblem(_ text: String) -> String? {
  do {
    _ = try AppScreen(jsonText: text)
    return nil
  } catch {
    return error.description
  }
}
