/// A data file that has passed every rule of the format: the only thing a store imports.
///
/// Checking is separate from writing, so that a command line can reject a bad file before
/// it opens (or creates) a database, and a good file is read only once.
public struct AppFile: Sendable, Hashable {
  /// The root screen.
  public let root: AppScreen

  /// Parses and checks a file's text; the first problem throws
  /// ``StoreError/invalidData(path:message:)`` with its JSON path.
  public init(jsonText: String) throws(StoreError) {
    root = try AppScreen(jsonText: jsonText)
  }

  /// Parses and checks a file's bytes (UTF-8, checked as they are parsed).
  public init(jsonBytes: some Collection<UInt8>) throws(StoreError) {
    root = try AppScreen(jsonBytes: jsonBytes)
  }

  /// Checks a screen built in code exactly as a file is checked.
  public init(validating screen: AppScreen) throws(StoreError) {
    root = try AppScreen(json: screen.json)
  }
}
