import ArgumentParser
import Foundation
import TableClient
import TableServer

/// `tableweb client ws://HOST:PORT/ws`: drives a server from a script or the keyboard.
struct ClientCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "client",
    abstract: "Connect to a tableweb server, show its screen as text and run commands.",
    discussion: """
      Commands, one per line, from standard input or --script:
      \(ScriptCommand.usage)
      Exit codes: 0 done, 1 the server answered an error (--strict), 2 cannot connect or a \
      bad script line (--strict), 3 the connection was lost or an answer did not come in time.
      """)

  @Argument(help: "The server's WebSocket URL, e.g. ws://127.0.0.1:8080/ws.")
  var url: String

  @Option(help: "Read commands from this file instead of standard input.")
  var script: String?

  @Flag(help: "Print every received message as one JSON line (and nothing else).")
  var json = false

  @Flag(help: "Exit non-zero at the first error.")
  var strict = false

  // Tokens and credentials are base64url, so one may begin with "-": the value is taken
  // whatever it looks like.
  @Option(parsing: .unconditional, help: "Resume the session with this token.")
  var session: String?

  @Option(
    parsing: .unconditional,
    help: "The access credential (from tableweb access grant), for a server that requires one.")
  var access: String?

  @Option(help: "What others see you as (at most 64 characters); an access grant's name wins.")
  var name: String?

  @Option(help: "Seconds to wait for the connection and for each answer.")
  var timeout: Double = 5

  func validate() throws {
    guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    if let name, name.unicodeScalars.count > 64 {
      throw ValidationError("--name is longer than 64 characters")
    }
  }

  func run() throws {
    var options = HeadlessClientRunner.Options(url: url, session: session, access: access)
    options.name = name
    options.printsJSON = json
    options.isStrict = strict
    options.timeout = .milliseconds(Int(timeout * 1000))

    var lines: [String] = []
    if let script {
      let text: String
      do {
        text = try String(contentsOfFile: script, encoding: .utf8)
      } catch {
        throw ValidationError("cannot read \(script): \(error.localizedDescription)")
      }
      lines = text.components(separatedBy: "\n")
    }
    var runner = HeadlessClientRunner(
      options: options,
      write: { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) },
      writeError: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) })
    let exit: HeadlessClientRunner.Exit
    if script != nil {
      var remaining = lines[...]
      exit = runner.runScript { remaining.popFirst() }
    } else if isatty(STDIN_FILENO) != 0 {
      // Typed commands: keep showing other people's changes while waiting for the next.
      let keyboard = KeyboardLines()
      exit = runner.run(poll: keyboard.poll)
    } else {
      exit = runner.runScript { readLine() }
    }
    if exit != .finished { throw ExitCode(exit.rawValue) }
  }
}

/// Lines typed on standard input, read on their own thread so that the client can show
/// updates while a person thinks.
private final class KeyboardLines: @unchecked Sendable {
  private let condition = NSCondition()
  private var lines: [String] = []
  private var isAtEnd = false

  init() {
    let thread = Thread { [self] in
      while let line = readLine() {
        condition.lock()
        lines.append(line)
        condition.unlock()
      }
      condition.lock()
      isAtEnd = true
      condition.unlock()
    }
    thread.start()
  }

  func poll() -> HeadlessClientRunner.NextLine {
    condition.lock()
    defer { condition.unlock() }
    if !lines.isEmpty { return .line(lines.removeFirst()) }
    return isAtEnd ? .end : .notYet
  }
}
