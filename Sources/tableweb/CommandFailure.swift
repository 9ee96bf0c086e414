/// A command-line failure: printed as `Error: <description>` with a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
